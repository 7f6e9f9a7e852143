import { Group, Loader, Modal, SimpleGrid, Stack, Text, VisuallyHidden } from '@mantine/core';
import { SectionCard } from '../../../components/titled-card.tsx';
import { confirmAction } from '../../../components/confirm-action.tsx';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TFileItem, TFileUploaded } from '@crm/contract';
import { FileDrop } from '../../../components/file-drop.tsx';
import { IconCloudCheck } from '../../../components/icons.ts';
import { describeError } from '../../../lib/errors.ts';
import { useUploadLimits } from '../../../lib/use-upload-limits.ts';
import { attachPhotos, deletePhoto, objectKeys, objectPhotosQuery } from '../api/objects.ts';
import { PhotoTile, usePhotoDrag, usePhotoOrder } from './photo-tile.tsx';

export { Photo, photoUrl, type TPhoto } from './photo.tsx';
import { Photo } from './photo.tsx';

/** The object's photos are its files of type `image`; a fresh upload is a picture by its detected type. */
const isPhoto = (f: { type?: string | null }) => f.type === 'image';
const isImage = (f: { mime: string }) => f.mime.startsWith('image/');

/**
 * The edit form's photos: upload many at once (with progress), reorder by dragging or with the
 * move buttons and the arrow keys, delete with a confirmation. An upload error opens an 'Error'
 * dialog (the spec's error catalogue).
 */
export function PhotoEditor({ objectId, onChanged }: { objectId: number; onChanged?: () => void }) {
  const { t } = useTranslation();
  // What the chooser offers: the picture types the server makes its copies from.
  const photoTypes = (useUploadLimits().limits?.photoTypes ?? ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff']).join(',');
  const qc = useQueryClient();
  const q = useQuery(objectPhotosQuery(objectId));
  const photos = useMemo(() => (q.data?.items ?? []).filter(isPhoto), [q.data]);
  const [error, setError] = useState<string | null>(null);
  const [announce, setAnnounce] = useState('');

  const setList = (items: TFileItem[]) => qc.setQueryData(objectKeys.photos(objectId), { items });
  const changed = () => {
    void qc.invalidateQueries({ queryKey: objectKeys.all });
    onChanged?.();
  };
  const order = usePhotoOrder(objectId, setList, changed, setError);

  const uploaded = async (files: TFileUploaded[], leftOut: string | null) => {
    const pictures = files.filter(isImage);
    const others = files.filter((f) => !isImage(f));
    const problems: string[] = [];
    if (pictures.length) {
      try {
        const res = await attachPhotos(objectId, pictures.map((f) => f.id));
        setList(res.items);
        changed();
      } catch (e) {
        problems.push(describeError(e).message);
      }
    }
    if (others.length) problems.push(t('objects.photos.notImages', { names: others.map((f) => f.userName).join(', ') }));
    // The files left out before sending (too large, not a photo ...).
    if (leftOut) problems.push(leftOut);
    if (problems.length) setError(problems.join('\n'));
  };

  // Focus stays on the photo just moved or next to the one deleted: a button that became disabled
  // (the first photo's "earlier") or was removed dropped it to the top of the page.
  const focusOn = (id: number | undefined, ...testIds: string[]) =>
    // After the confirmation's own return of focus (its closing transition), not before it.
    setTimeout(() => {
      const card = id == null ? null : document.querySelector<HTMLElement>(`[data-testid="photo-item"][data-photo-id="${id}"]`);
      if (!card) return;
      const button = testIds.map((tid) => card.querySelector<HTMLButtonElement>(`[data-testid="${tid}"]`)).find((b) => b && !b.disabled);
      (button ?? card.querySelector<HTMLElement>('[data-testid="photo-handle"]'))?.focus();
    }, 300);

  const move = (from: number, to: number) => {
    if (to < 0 || to >= photos.length || from === to) return;
    const next = [...photos];
    const [it] = next.splice(from, 1);
    next.splice(to, 0, it!);
    setList([...next, ...(q.data?.items ?? []).filter((f) => !isPhoto(f))]);
    setAnnounce(t('objects.photos.moved', { n: to + 1, count: next.length }));
    order.send(next.map((p) => p.id));
  };
  const drag = usePhotoDrag(move);

  const confirmDelete = (p: TFileItem) =>
    confirmAction(t, {
      title: t('objects.photos.deleteTitle'),
      text: (
        <Stack gap="xs">
          <Photo id={p.id} alt={p.userName} h={160} fit="contain" />
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {p.userName}
          </Text>
        </Stack>
      ),
      testId: 'photo-delete-confirm',
      onConfirm: async () => {
        try {
          await deletePhoto(p.id);
          const at = photos.findIndex((f) => f.id === p.id);
          const neighbour = photos[at + 1] ?? photos[at - 1];
          setList((q.data?.items ?? []).filter((f) => f.id !== p.id));
          changed();
          focusOn(neighbour?.id, 'photo-delete');
        } catch (e) {
          setError(describeError(e).message);
        }
      },
    });

  return (
    <Stack gap="sm" data-testid="photo-editor">
      <VisuallyHidden aria-live="polite">{announce}</VisuallyHidden>
      {photos.length === 0 && q.isSuccess && (
        <Text size="sm" c="dimmed" data-testid="photos-empty">
          {t('objects.photos.none')}
        </Text>
      )}
      {photos.length > 0 && (
        <>
          <Group gap="xs" justify="space-between" wrap="wrap">
            <Text size="xs" c="dimmed">
              {t('objects.photos.reorderHint')}
            </Text>
            {order.status !== 'idle' && (
              <Group gap={4} data-testid="photo-order-status" data-status={order.status}>
                {order.status === 'saving' ? <Loader size={12} /> : <IconCloudCheck size={16} color="var(--mantine-color-green-7)" />}
                <Text size="xs" c="dimmed">
                  {order.status === 'saving' ? t('objects.photos.orderSaving') : t('objects.photos.orderSaved')}
                </Text>
              </Group>
            )}
          </Group>
          <SimpleGrid cols={{ base: 2, xs: 3, md: 4, lg: 6 }} spacing="xs" data-testid="photo-list" role="list">
            {photos.map((p, i) => (
              <PhotoTile key={p.id} p={p} i={i} count={photos.length} drag={drag} move={move} focusOn={focusOn} onDelete={() => confirmDelete(p)} />
            ))}
          </SimpleGrid>
        </>
      )}
      <FileDrop onUploaded={uploaded} onError={setError} photos accept={photoTypes} hint={t('objects.photos.hint')} busyLabel={t('objects.photos.attaching')} />
      <Modal opened={error != null} onClose={() => setError(null)} title={t('objects.photos.errorTitle')} centered closeButtonProps={{ 'aria-label': t('common.close') }}>
        <Text size="sm" c="red.8" className="pre-line" data-testid="photo-error">
          {error}
        </Text>
      </Modal>
    </Stack>
  );
}

/** The photos card of the edit form. */
export function PhotosSection({ objectId }: { objectId: number }) {
  const { t } = useTranslation();
  return (
    <SectionCard title={t('objects.section.photos')} testId="edit-photos">
      <PhotoEditor objectId={objectId} />
    </SectionCard>
  );
}
