import { ActionIcon, Anchor, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { api } from '../lib/api.ts';
import { formatTypedNumber } from '../lib/typed-number.ts';
import { describeError } from '../lib/errors.ts';
import { IconFile, IconPhoto, IconTrash } from './icons.ts';

/** What a file link needs: the stored name (the key) and the user's name; the rest is optional. */
export type FileLinkItem = { systemName: string; userName: string; id?: number; mime?: string; size?: number };

/** Types the browser shows itself (the server serves them inline); the others are downloaded. */
const PREVIEW_MIME = /^(image\/(jpeg|png|gif|webp|bmp|avif)|application\/pdf)$/;
const PREVIEW_EXT = /\.(jpe?g|png|gif|webp|bmp|avif|pdf)$/i;

const isPreviewable = (systemName: string, mime?: string) => (mime ? PREVIEW_MIME.test(mime) : PREVIEW_EXT.test(systemName));

/**
 * Opens a stored file. A link cannot send the bearer token, so the file is fetched with it and
 * shown from a blob URL: pictures and PDFs in a new tab, everything else downloaded under the
 * user's file name.
 */
export async function openFile(systemName: string, userName: string, mime?: string): Promise<void> {
  const preview = isPreviewable(systemName, mime);
  // Opened now, while the click still counts as the user's gesture, so no pop-up blocker stops it.
  const win = preview ? window.open('', '_blank') : null;
  try {
    const blob = await api<Blob>(`/api/files/${encodeURIComponent(systemName)}`, { blob: true });
    const url = URL.createObjectURL(blob);
    if (win) {
      win.location.href = url;
    } else {
      const a = document.createElement('a');
      a.href = url;
      a.download = userName;
      a.rel = 'noopener';
      document.body.appendChild(a);
      a.click();
      a.remove();
    }
    window.setTimeout(() => URL.revokeObjectURL(url), 5 * 60 * 1000);
  } catch (e) {
    win?.close();
    throw e;
  }
}

/** 12 KB, 3,4 MB: decimals as the agency writes them, whatever the browser's own locale. */
export function formatFileSize(bytes: number, t: (key: string, o?: Record<string, unknown>) => string): string {
  if (bytes < 1024 * 1024) return t('files.sizeKb', { n: Math.max(1, Math.round(bytes / 1024)) });
  return t('files.sizeMb', { n: formatTypedNumber(Math.round((bytes / (1024 * 1024)) * 10) / 10) });
}

/**
 * The files of a record as links (open with the user's sign-in), with a delete button each when
 * `onDelete` is given. Failures to open are reported through `onError`.
 */
export function FileLinks({
  files,
  onDelete,
  onError,
}: {
  files: FileLinkItem[];
  onDelete?: (file: FileLinkItem) => void;
  onError?: (message: string) => void;
}) {
  const { t } = useTranslation();
  const open = (f: FileLinkItem) => {
    openFile(f.systemName, f.userName, f.mime).catch((e: unknown) => onError?.(describeError(e).message));
  };
  return (
    <Stack gap={4} data-testid="file-links">
      {files.map((f) => {
        const Icon = isPreviewable(f.systemName, f.mime) && !f.mime?.startsWith('application/pdf') ? IconPhoto : IconFile;
        return (
          <Group key={f.systemName} gap="xs" wrap="nowrap" data-testid="file-link-row" data-name={f.userName}>
            <Icon size={16} stroke={1.6} aria-hidden />
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => open(f)}
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
