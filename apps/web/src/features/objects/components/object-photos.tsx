import { ActionIcon, Box, Card, Group, Image, Loader, Modal, SimpleGrid, Stack, Text, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState, type DragEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFileItem, TFileUploaded } from '@crm/contract';
import { FILE, urlOf } from '@crm/contract/resources';
import { FileDrop } from '../../../components/file-drop.tsx';
import { IconCloudCheck, IconPhoto, IconTrash } from '../../../components/icons.ts';
import { IconChevronLeft, IconChevronRight, IconGripVertical } from '../icons.ts';
import { describeError } from '../../../lib/errors.ts';
import { useUploadLimits } from '../../../lib/use-upload-limits.ts';
import { attachPhotos, deletePhoto, objectKeys, objectPhotosQuery, reorderPhotos } from '../api/objects.ts';

/** A photo of the object; the original's pixel size and bytes when known ("Open original" says them). */
export type TPhoto = { id: number; name: string; width?: number | null; height?: number | null; size?: number };

/** Which copy: a small thumbnail (lists, strips), the screen-size copy (carousel), or the original ("Open original" links it under its own name, fileUrl). */
type PhotoSize = 'thumb' | 'web' | 'original';
export const photoUrl = (id: number, size: PhotoSize = 'thumb') => urlOf(FILE.calls.get, { params: { systemName: String(id) }, query: size === 'original' ? {} : { size } });

/**
 * One photo, filling its box (cover) or shown whole (contain). A plain <img>: the browser sends
 * the session's file cookie, so no token is in the address and the browser caches the copy.
 */
export function Photo({ id, alt, fit = 'cover', h, size = 'thumb' }: { id: number; alt: string; fit?: 'cover' | 'contain'; h?: number | string; size?: PhotoSize }) {
  const [failed, setFailed] = useState(false);
  if (failed)
    return (
      <Box h={h} style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', background: 'var(--mantine-color-gray-1)', width: '100%' }}>
        <IconPhoto size={28} color="var(--mantine-color-gray-6)" {...(alt ? { role: 'img', 'aria-label': alt } : { 'aria-hidden': true })} />
      </Box>
    );
  return <Image src={photoUrl(id, size)} alt={alt} fit={fit} h={h} w="100%" loading="lazy" onError={() => setFailed(true)} data-testid="photo-img" />;
}


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
  const [dragging, setDragging] = useState<number | null>(null);
  const [announce, setAnnounce] = useState('');
  const key = objectKeys.photos(objectId);

  const setList = (items: TFileItem[]) => qc.setQueryData(key, { items });
  const changed = () => {
    void qc.invalidateQueries({ queryKey: objectKeys.all });
    onChanged?.();
  };

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

  // One reorder request at a time: moves made while one is on its way are sent right after it,
  // as the newest order, so an older answer never overwrites a newer order on the screen and the
  // server never receives two orders out of turn.
  const wanted = useRef<number[] | null>(null);
  const sending = useRef(false);
  const [orderStatus, setOrderStatus] = useState<'idle' | 'saving' | 'saved'>('idle');
  const sendOrder = async () => {
    if (sending.current) return;
    sending.current = true;
    setOrderStatus('saving');
    try {
      while (wanted.current) {
        const ids = wanted.current;
        wanted.current = null;
        try {
          const res = await reorderPhotos(ids);
          if (!wanted.current) setList(res.items);
        } catch (e) {
          wanted.current = null;
          setError(describeError(e).message);
          void qc.invalidateQueries({ queryKey: key });
          setOrderStatus('idle');
          return;
        }
      }
      setOrderStatus('saved');
      changed();
    } finally {
      sending.current = false;
    }
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
    const order = [...photos];
    const [it] = order.splice(from, 1);
    order.splice(to, 0, it!);
    const others = (q.data?.items ?? []).filter((f) => !isPhoto(f));
    setList([...order, ...others]);
    setAnnounce(t('objects.photos.moved', { n: to + 1, count: order.length }));
    wanted.current = order.map((p) => p.id);
    void sendOrder();
  };

  const confirmDelete = (p: TFileItem) =>
    modals.openConfirmModal({
      title: t('objects.photos.deleteTitle'),
      children: (
        <Stack gap="xs">
          <Photo id={p.id} alt={p.userName} h={160} fit="contain" />
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {p.userName}
          </Text>
        </Stack>
      ),
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'photo-delete-confirm' } as Record<string, unknown>,
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

  // Touch and pen: the grip handle is dragged with pointer events (phones have no native drag and
  // drop); the photo under the finger is the target, and letting go moves the photo there.
  const [over, setOver] = useState<number | null>(null);
  const photoIndexAt = (x: number, y: number) => {
    const el = document.elementFromPoint(x, y)?.closest<HTMLElement>('[data-photo-index]');
    return el ? Number(el.dataset.photoIndex) : null;
  };
  const onHandleDown = (e: PointerEvent, i: number) => {
    if (e.pointerType === 'mouse') return;
    e.currentTarget.setPointerCapture(e.pointerId);
    setDragging(i);
    setOver(i);
  };
  const onHandleMove = (e: PointerEvent) => {
    if (dragging == null || e.pointerType === 'mouse') return;
    setOver(photoIndexAt(e.clientX, e.clientY));
  };
  const onHandleUp = (e: PointerEvent) => {
    if (dragging == null || e.pointerType === 'mouse') return;
    const from = dragging;
    const to = photoIndexAt(e.clientX, e.clientY);
    setDragging(null);
    setOver(null);
    if (to != null) move(from, to);
  };

  const onDrop = (e: DragEvent, to: number) => {
    e.preventDefault();
    const from = dragging;
    setDragging(null);
    if (from != null) move(from, to);
  };

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
            {orderStatus !== 'idle' && (
              <Group gap={4} data-testid="photo-order-status" data-status={orderStatus}>
                {orderStatus === 'saving' ? <Loader size={12} /> : <IconCloudCheck size={16} color="var(--mantine-color-green-7)" />}
                <Text size="xs" c="dimmed">
                  {orderStatus === 'saving' ? t('objects.photos.orderSaving') : t('objects.photos.orderSaved')}
                </Text>
              </Group>
            )}
          </Group>
          <SimpleGrid cols={{ base: 2, xs: 3, md: 4, lg: 6 }} spacing="xs" data-testid="photo-list" role="list">
            {photos.map((p, i) => (
              <Card
                key={p.id}
                withBorder
                padding={4}
                role="listitem"
                draggable
                onDragStart={(e) => {
                  setDragging(i);
                  e.dataTransfer.effectAllowed = 'move';
                  e.dataTransfer.setData('text/plain', String(p.id));
                }}
                onDragEnd={() => setDragging(null)}
                onDragOver={(e) => {
                  e.preventDefault();
                  e.dataTransfer.dropEffect = 'move';
                }}
                onDrop={(e) => onDrop(e, i)}
                data-testid="photo-item"
                data-photo-id={p.id}
                data-photo-index={i}
                style={{ opacity: dragging === i ? 0.5 : 1, cursor: 'grab', outline: over === i && dragging !== i ? '2px dashed var(--mantine-color-blue-7)' : undefined }}
              >
                <Box pos="relative">
                  <Photo id={p.id} alt={t('objects.photos.position', { n: i + 1, count: photos.length, name: p.userName })} h={96} />
                  {i === 0 && (
                    <Text size="xs" pos="absolute" top={4} left={4} px={6} c="white" bg="blue.8" style={{ borderRadius: 4 }}>
                      {t('objects.photos.cover')}
                    </Text>
                  )}
                </Box>
                <Group gap={2} justify="space-between" wrap="nowrap" mt={4}>
                  <Tooltip label={t('objects.photos.moveHandle')} withArrow>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      size="sm"
                      aria-label={t('objects.photos.moveHandleLabel', { n: i + 1, count: photos.length })}
                      aria-keyshortcuts="ArrowLeft ArrowRight"
                      onKeyDown={(e) => {
                        if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') {
                          e.preventDefault();
                          move(i, i - 1);
                        } else if (e.key === 'ArrowRight' || e.key === 'ArrowDown') {
                          e.preventDefault();
                          move(i, i + 1);
                        }
                      }}
                      data-testid="photo-handle"
                      onPointerDown={(e) => onHandleDown(e, i)}
                      onPointerMove={onHandleMove}
                      onPointerUp={onHandleUp}
                      onPointerCancel={() => {
                        setDragging(null);
                        setOver(null);
                      }}
                      style={{ touchAction: 'none' }}
                    >
                      <IconGripVertical size={16} />
                    </ActionIcon>
                  </Tooltip>
                  <Group gap={2} wrap="nowrap">
                    <ActionIcon
                      variant="subtle"
                      size="sm"
                      disabled={i === 0}
                      onClick={() => {
                        move(i, i - 1);
                        focusOn(p.id, 'photo-earlier', 'photo-later');
                      }}
                      aria-label={t('objects.photos.moveEarlier')}
                      data-testid="photo-earlier"
                    >
                      <IconChevronLeft size={16} />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      size="sm"
                      disabled={i === photos.length - 1}
                      onClick={() => {
                        move(i, i + 1);
                        focusOn(p.id, 'photo-later', 'photo-earlier');
                      }}
                      aria-label={t('objects.photos.moveLater')}
                      data-testid="photo-later"
                    >
                      <IconChevronRight size={16} />
                    </ActionIcon>
                    <ActionIcon variant="subtle" color="red" size="sm" onClick={() => confirmDelete(p)} aria-label={t('objects.photos.delete')} data-testid="photo-delete">
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                </Group>
              </Card>
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
    <Card withBorder padding="sm" data-testid="edit-photos">
      <Title order={3} size="h5" mb="xs">
        {t('objects.section.photos')}
      </Title>
      <PhotoEditor objectId={objectId} />
    </Card>
  );
}
