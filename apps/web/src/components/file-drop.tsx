import { useRef, useState, type DragEvent } from 'react';
import { Anchor, Box, Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from '../lib/use-translation.tsx';
import type { TFileUploaded } from '@crm/contract';
import { FILE } from '@crm/contract/resources';
import { postWithProgress, whileUploading } from '../lib/upload.ts';
import { describeError } from '../lib/errors.ts';
import { toMb } from '../lib/upload-limits.ts';
import { useUploadLimits } from '../lib/use-upload-limits.ts';
import { IconCloudUpload } from './icons.ts';

/** What the chooser offers; the server decides by content anyway. */
export const UPLOAD_ACCEPT = [
  'image/*',
  'video/*',
  'audio/*',
  '.heic,.heif,.txt,.csv,.doc,.docx,.odt,.odp,.ods,.pdf,.ppt,.pptx,.xls,.xlsx,.rtf,.vsd,.vsdx,.xhtml,.xml,.zip,.rar,.7z',
].join(',');

/** POST /api/files with upload progress (lib/upload.ts). */
export function uploadFiles(files: File[], onProgress: (percent: number) => void): Promise<TFileUploaded[]> {
  const body = new FormData();
  for (const f of files) body.append('files', f, f.name);
  return postWithProgress(FILE.calls.upload, body, onProgress);
}

/**
 * A drop area with a hidden file input: drag files onto it or click to choose several. Shows a
 * progress bar while uploading; answers the stored files, or the server's (translated) message.
 * Files past the server's limits (size, number, the request's total; for `photos`, a kind the server
 * cannot show) are left out before anything is sent: when none fits, `onError` says why; otherwise
 * the others are uploaded and `onUploaded` is handed the message about those left out.
 */
export function FileDrop({
  onUploaded,
  onError,
  disabled,
  busyLabel,
  accept = UPLOAD_ACCEPT,
  hint,
  photos,
}: {
  /** The stored files, and what to tell about the files left out before sending (null when none was). */
  onUploaded: (files: TFileUploaded[], leftOut: string | null) => void | Promise<void>;
  onError: (message: string) => void;
  disabled?: boolean;
  /** Shown after the upload while the caller finishes (e.g. attaching). */
  busyLabel?: string;
  /** What the chooser offers (default: every accepted type) and the hint under it. */
  accept?: string;
  hint?: string;
  /** The files become an object's photos: only the picture types the server makes copies from. */
  photos?: boolean;
}) {
  const { t } = useTranslation();
  const limits = useUploadLimits();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [finishing, setFinishing] = useState(false);
  const busy = progress !== null || finishing || !!disabled;

  const start = async (list: FileList | null) => {
    const files = list ? Array.from(list) : [];
    if (input.current) input.current.value = '';
    if (!files.length || busy) return;
    // Checked before sending: a file past the limits is not uploaded only to be refused.
    setProgress(0);
    const check = await limits.check(files, { photos });
    if (!check.accepted.length) {
      setProgress(null);
      onError(check.message(null)!);
      return;
    }
    const leftOut = check.message('uploaded');
    try {
      await whileUploading(async () => {
        const stored = await uploadFiles(check.accepted, setProgress);
        setProgress(null);
        setFinishing(true);
        await onUploaded(stored, leftOut);
      });
    } catch (e) {
      onError([describeError(e).message, check.message(null)].filter(Boolean).join('\n'));
    } finally {
      setProgress(null);
      setFinishing(false);
    }
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    void start(e.dataTransfer.files);
  };

  return (
    <Box
      data-testid="file-drop"
      data-over={over || undefined}
      onDragOver={(e) => {
        e.preventDefault();
        if (!busy) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      onClick={() => !busy && input.current?.click()}
      role="button"
      tabIndex={0}
      aria-disabled={busy}
      onKeyDown={(e) => {
        if ((e.key === 'Enter' || e.key === ' ') && !busy) {
          e.preventDefault();
          input.current?.click();
        }
      }}
      p="md"
      style={{
        border: `1px dashed ${over ? 'var(--mantine-color-blue-6)' : 'var(--mantine-color-gray-4)'}`,
        borderRadius: 'var(--mantine-radius-sm)',
        background: over ? 'var(--mantine-color-blue-0)' : undefined,
        cursor: busy ? 'progress' : 'pointer',
      }}
    >
      <input
        ref={input}
        type="file"
        multiple
        hidden
        accept={accept}
        data-testid="file-input"
        onChange={(e) => void start(e.currentTarget.files)}
      />
      {progress !== null || finishing ? (
        <Stack gap={6}>
          <Text size="sm">{finishing ? (busyLabel ?? t('files.attaching')) : t('files.uploading', { percent: progress ?? 0 })}</Text>
          <Progress value={finishing ? 100 : (progress ?? 0)} animated striped data-testid="file-progress" aria-label={t('files.uploading', { percent: progress ?? 0 })} />
        </Stack>
      ) : (
        <Group gap="sm" wrap="nowrap">
          <IconCloudUpload size={28} stroke={1.4} color="var(--mantine-color-gray-6)" aria-hidden />
          <Stack gap={2}>
            <Text size="sm">
              {t('files.dropHere')}{' '}
              <Anchor component="span" size="sm">
                {t('files.choose')}
              </Anchor>
            </Text>
            <Text size="xs" c="dimmed">
              {hint ?? t('files.accepted')}
            </Text>
            {limits.limits && (
              <Text size="xs" c="dimmed" data-testid="file-drop-limit">
                {t('files.check.limits', { max: toMb(limits.limits.fileMaxBytes) })}
              </Text>
            )}
          </Stack>
        </Group>
      )}
    </Box>
  );
}
