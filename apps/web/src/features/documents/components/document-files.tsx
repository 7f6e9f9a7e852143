import { ActionIcon, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { SectionCard } from '../../../components/titled-card.tsx';
import { useRef } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { DOCUMENT_FILES_MAX } from '@crm/contract/office-constants';
import { UPLOAD_ACCEPT } from '../../../components/file-drop.tsx';
import { FileLinks, formatFileSize } from '../../../components/file-links.tsx';
import { IconCloudUpload, IconX } from '../../../components/icons.ts';
import { useUploadLimits } from '../../../lib/use-upload-limits.ts';
import type { TDocument } from '../api/documents.ts';

/** The document form's files: those kept of the stored ones, and the new ones, sent together on Save. */
export type TDocumentFiles = { removed: number[]; added: File[] };

/**
 * The document's files: the stored ones (each removable while edited), the new ones picked (each
 * droppable), Add files, and the upload's progress while saving.
 */
export function DocumentFiles({
  doc,
  files,
  set,
  readOnly,
  progress,
  onError,
}: {
  doc: TDocument;
  files: TDocumentFiles;
  set: (patch: Partial<TDocumentFiles>) => void;
  readOnly: boolean;
  /** The upload's percent while saving, else null. */
  progress: number | null;
  onError: (message: string | null) => void;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const limits = useUploadLimits();
  const kept = doc.files.filter((f) => !files.removed.includes(f.id!));
  const { added } = files;
  const pick = async (list: FileList | null) => {
    const picked = list ? Array.from(list) : [];
    if (input.current) input.current.value = '';
    if (!picked.length) return;
    if (kept.length + added.length + picked.length > DOCUMENT_FILES_MAX) {
      onError(t('documents.ui.tooManyFiles', { max: DOCUMENT_FILES_MAX }));
      return;
    }
    // The new files are sent together on save: checked now against the server's limits, with those
    // added before, so a file that would be refused is never sent (and nothing typed is lost).
    const check = await limits.check(picked, { already: added });
    onError(check.message('added'));
    set({ added: [...added, ...check.accepted] });
  };
  return (
    <SectionCard title={t('documents.ui.files')} testId="document-files" empty={kept.length === 0 && added.length === 0 && t('documents.ui.noFiles')}>
      <FileLinks files={kept} onDelete={readOnly ? undefined : (f) => set({ removed: [...files.removed, f.id!] })} />
      {!readOnly && added.length > 0 && (
        <Stack gap={4} mt="xs" data-testid="document-new-files">
          {added.map((f, i) => (
            <Group key={`${f.name}-${i}`} gap="xs" wrap="nowrap" data-testid="document-new-file">
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {f.name}
              </Text>
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {formatFileSize(f.size, t)} · {t('documents.ui.newFile')}
              </Text>
              <ActionIcon variant="subtle" color="red" size="sm" onClick={() => set({ added: added.filter((_, j) => j !== i) })} aria-label={t('documents.ui.dropNew', { name: f.name })}>
                <IconX size={15} />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      )}
      {!readOnly && (
        <Stack gap="xs" mt="sm">
          <input ref={input} type="file" multiple hidden accept={UPLOAD_ACCEPT} data-testid="document-file-input" onChange={(e) => void pick(e.currentTarget.files)} />
          <Group>
            <Button variant="light" leftSection={<IconCloudUpload size={16} />} onClick={() => input.current?.click()} disabled={progress !== null} data-testid="document-add-files">
              {t('documents.ui.addFiles')}
            </Button>
            <Text size="xs" c="dimmed">
              {t('documents.ui.filesHint', { max: DOCUMENT_FILES_MAX })}
            </Text>
          </Group>
          {progress !== null && <Progress value={progress} animated striped aria-label={t('files.uploading', { percent: progress })} data-testid="document-progress" />}
        </Stack>
      )}
    </SectionCard>
  );
}
