import { useState } from 'react';
import { Alert, Badge, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { confirmAction } from './confirm-action.tsx';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../lib/use-translation.tsx';
import type { TFileUploaded } from '@crm/contract';
import { FILE } from '@crm/contract/resources';
import { call } from '../lib/api.ts';
import { describeError } from '../lib/errors.ts';
import { FileDrop } from './file-drop.tsx';
import { FileLinks, type FileLinkItem } from './file-links.tsx';
import { useSectionReady } from './reveal.tsx';
import { recordFilesKey, recordFilesQuery } from './record-files-query.ts';

/**
 * The files section of a record (account, activity, object ...): links that open the files, and
 * in edit mode a drop area to add several at once and a delete button per file. Upload and
 * attach failures show in a red alert above the links (the spec's error catalogue). A record not
 * stored yet (id 0: a new activity) is stored by `ensureParent` when its first file is dropped.
 */
export function RecordFiles({ entityType, id, editable, ensureParent }: { entityType: number; id: number; editable: boolean; ensureParent?: () => Promise<number> }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const key = recordFilesKey(entityType, id);
  const q = useQuery(recordFilesQuery(entityType, id));
  const items = q.data?.items ?? [];
  useSectionReady('files', !q.isPending || q.fetchStatus === 'idle');

  const attach = async (uploaded: TFileUploaded[], leftOut: string | null) => {
    try {
      const parentId = id > 0 || !ensureParent ? id : await ensureParent();
      const res = await call(FILE.calls.setParent, { body: { entityType, id: parentId, fileNames: uploaded.map((f) => f.id), type: null } });
      setError(leftOut);
      qc.setQueryData(recordFilesKey(entityType, parentId), { items: res.items });
    } catch (e) {
      setError([describeError(e).message, leftOut].filter(Boolean).join('\n'));
    }
  };

  const confirmDelete = (f: FileLinkItem) => {
    confirmAction(t, {
      title: t('files.deleteConfirm'),
      text: (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {f.userName}
        </Text>
      ),
      testId: 'file-delete-confirm',
      cancelTestId: 'file-delete-cancel',
      onConfirm: async () => {
        try {
          await call(FILE.calls.remove, { params: { systemName: f.systemName } });
          setError(null);
        } catch (e) {
          setError(describeError(e).message);
        }
        await qc.invalidateQueries({ queryKey: key });
      },
    });
  };

  return (
    <Card withBorder data-testid="record-files">
      <Stack gap="xs">
        <Group gap="xs">
          <Title order={3} size="h4">{t('files.title')}</Title>
          <Badge variant="light" data-testid="files-count">
            {items.length}
          </Badge>
          {q.isFetching && <Loader size="xs" />}
        </Group>
        {error && (
          <Alert color="red" withCloseButton onClose={() => setError(null)} data-testid="files-error" closeButtonLabel={t('common.close')}>
            <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
              {error}
            </Text>
          </Alert>
        )}
        {items.length > 0 ? (
          <FileLinks files={items} onDelete={editable ? confirmDelete : undefined} />
        ) : (
          q.isSuccess && (
            <Text size="sm" c="dimmed" data-testid="files-empty">
              {t('files.empty')}
            </Text>
          )
        )}
        {editable && <FileDrop onUploaded={attach} onError={setError} />}
      </Stack>
    </Card>
  );
}
