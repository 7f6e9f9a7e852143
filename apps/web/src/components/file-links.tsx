import { ActionIcon, Anchor, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from '../lib/use-translation.tsx';
import { FILE, urlOf } from '@crm/contract/resources';
import { fileAnchor } from '../lib/download.ts';
import { formatTypedNumber } from '../lib/typed-number.ts';
import { IconFile, IconPhoto, IconTrash } from './icons.ts';

/** What a file link needs: the stored name (the key) and the user's name; the rest is optional. */
export type FileLinkItem = { systemName: string; userName: string; id?: number; mime?: string; size?: number };

/** Types the browser shows itself (the server serves them inline); the others are downloaded. */
const PREVIEW_MIME = /^(image\/(jpeg|png|gif|webp|bmp|avif)|application\/pdf)$/;
const PREVIEW_EXT = /\.(jpe?g|png|gif|webp|bmp|avif|pdf)$/i;

export const isPreviewable = (systemName: string, mime?: string) => (mime ? PREVIEW_MIME.test(mime) : PREVIEW_EXT.test(systemName));

/**
 * A stored file's address, its own name the last part: the session's file cookie opens it (decision
 * 012), so a tab opened on it is titled by that name and "Save as" offers it, never a random name at
 * a blob: address.
 */
export const fileUrl = (systemName: string, userName: string) => urlOf(FILE.calls.getNamed, { params: { systemName, name: userName } });

/** The link to a stored file of a record. */
export const fileLinkProps = (f: { systemName: string; userName: string; mime?: string }) => fileAnchor(fileUrl(f.systemName, f.userName), f.userName, isPreviewable(f.systemName, f.mime));

/** 12 KB, 3,4 MB: decimals as the agency writes them, whatever the browser's own locale. */
export function formatFileSize(bytes: number, t: (key: string, o?: Record<string, unknown>) => string): string {
  if (bytes < 1024 * 1024) return t('files.sizeKb', { n: Math.max(1, Math.round(bytes / 1024)) });
  return t('files.sizeMb', { n: formatTypedNumber(Math.round((bytes / (1024 * 1024)) * 10) / 10) });
}

/** The files of a record as links (opened by the session's file cookie), with a delete button each when `onDelete` is given. */
export function FileLinks({ files, onDelete }: { files: FileLinkItem[]; onDelete?: (file: FileLinkItem) => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} data-testid="file-links">
      {files.map((f) => {
        const Icon = isPreviewable(f.systemName, f.mime) && !f.mime?.startsWith('application/pdf') ? IconPhoto : IconFile;
        return (
          <Group key={f.systemName} gap="xs" wrap="nowrap" data-testid="file-link-row" data-name={f.userName}>
            <Icon size={16} stroke={1.6} aria-hidden />
            <Anchor
              {...fileLinkProps(f)}
              size="sm"
              title={t('files.open', { name: f.userName })}
              data-testid="file-link"
              style={{ overflowWrap: 'anywhere', textAlign: 'left' }}
            >
              {f.userName}
            </Anchor>
            {f.size != null && (
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {formatFileSize(f.size, t)}
              </Text>
            )}
            {onDelete && (
              <ActionIcon
                variant="subtle"
                color="red"
                size="sm"
                onClick={() => onDelete(f)}
                aria-label={t('files.delete', { name: f.userName })}
                data-testid="file-delete"
              >
                <IconTrash size={15} />
              </ActionIcon>
            )}
          </Group>
        );
      })}
    </Stack>
  );
}
