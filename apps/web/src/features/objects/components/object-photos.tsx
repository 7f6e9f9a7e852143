import { ActionIcon, Anchor, Box, Card, Group, Image, Loader, Modal, SimpleGrid, Stack, Text, Title, Tooltip, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent, type PointerEvent, type TouchEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFileItem, TFileUploaded } from '@crm/contract';
import { FILE, urlOf } from '@crm/contract/resources';
import { FileDrop } from '../../../components/file-drop.tsx';
import { IconCloudCheck, IconPhoto, IconTrash } from '../../../components/icons.ts';
import { IconChevronLeft, IconChevronRight, IconExternalLink, IconGripVertical, IconZoomIn, IconZoomOut } from '../icons.ts';
import { fileUrl, formatFileSize } from '../../../components/file-links.tsx';
import { MAX_ZOOM, usePhotoZoom } from './photo-zoom.ts';
import { describeError } from '../../../lib/errors.ts';
import { useUploadLimits } from '../../../lib/use-upload-limits.ts';
import { attachPhotos, deletePhoto, objectKeys, objectPhotosQuery, reorderPhotos } from '../api/objects.ts';
import { useMedia } from '../../../lib/first-paint.ts';

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

/** The previous / next button over a photo's left or right edge: 44 px round (WCAG 2.2 target size), white with a ring so it shows on any photo. */
function PhotoStep({ dir, onClick, large, testId }: { dir: -1 | 1; onClick: () => void; large?: boolean; testId: string }) {
  const { t } = useTranslation();
  const Icon = dir < 0 ? IconChevronLeft : IconChevronRight;
  return (
    <ActionIcon
      variant="white"
      color="dark"
      radius="xl"
      size={large ? 44 : 'lg'}
      pos="absolute"
      left={dir < 0 ? 8 : undefined}
      right={dir > 0 ? 8 : undefined}
      top="50%"
      style={{ transform: 'translateY(-50%)', boxShadow: '0 1px 4px rgba(0,0,0,.45)', border: '1px solid var(--mantine-color-gray-6)' }}
      onClick={onClick}
      aria-label={t(dir < 0 ? 'objects.photos.previous' : 'objects.photos.next')}
      data-testid={testId}
    >
      <Icon size={large ? 24 : 20} />
    </ActionIcon>
  );
}

/** A swipe: a one-finger move mostly sideways, at least 40 px; a pinch or a scroll is none. */
function useSwipe(onSwipe: (dir: -1 | 1) => void) {
  const start = useRef<{ x: number; y: number } | null>(null);
  return {
    onTouchStart: (e: TouchEvent) => {
      const p = e.touches[0];
      start.current = e.touches.length === 1 && p ? { x: p.clientX, y: p.clientY } : null;
    },
    onTouchMove: (e: TouchEvent) => {
      if (e.touches.length > 1) start.current = null;
    },
    onTouchEnd: (e: TouchEvent) => {
      const s = start.current;
      const p = e.changedTouches[0];
      start.current = null;
      if (!s || !p) return;
      const dx = p.clientX - s.x;
      const dy = p.clientY - s.y;
      // Finger to the left: the next photo comes in from the right.
      if (Math.abs(dx) >= 40 && Math.abs(dx) > 1.5 * Math.abs(dy)) onSwipe(dx < 0 ? 1 : -1);
    },
  };
}

/** "4000 × 3000 · 3.4 MB": what the original is, before a phone downloads it. */
function originalSize(p: TPhoto, t: (key: string, o?: Record<string, unknown>) => string) {
  const px = p.width && p.height ? `${p.width}\u00a0×\u00a0${p.height}` : null;
  return [px, p.size ? formatFileSize(p.size, t) : null].filter(Boolean).join(' · ');
}

/**
 * The enlarged photo: a dialog over the page (the whole screen on a phone) with previous / next
 * buttons, the arrow keys and a swipe (the photo follows the finger), and where it is ("3 / 12").
 * It zooms: a double tap or double click (2×, or back to the whole photo), a pinch, the − and +
 * buttons, the keys + and − (0 for the whole photo), from 1× to 4×; zoomed, a drag (or the arrow
 * keys) moves about the photo, and a swipe no longer changes photo. "Open original" shows the
 * uploaded file itself in a new tab. It turns round at the ends, like the carousel under it, which
 * follows it: closing shows the last photo looked at, and the focus goes back to that photo (the
 * button that opened the dialog). The screen-size copy is shown (at most 1600 px, a few hundred
 * kilobytes) rather than the camera's original, and the photos beside it are loaded ahead so a
 * swipe shows the next one at once.
 */
function PhotoLightbox({ opened, onClose, photos, at, go, alt }: { opened: boolean; onClose: () => void; photos: TPhoto[]; at: number; go: (d: number) => void; alt: (i: number) => string }) {
  const { t } = useTranslation();
  const phone = useMedia('(max-width: 48em)', false);
  const count = photos.length;
  const current = photos[at];
  const zoom = usePhotoZoom({ go: (d) => go(d), canSwipe: count > 1, photoKey: `${opened}:${current?.id}` });
  const [zoomSaid, setZoomSaid] = useState('');
  // The photos before and after, loaded ahead (the browser keeps them for the next swipe).
  const ahead = count > 1 ? [photos[(at + 1) % count]!.id, photos[(at - 1 + count) % count]!.id] : [];
  const aheadKey = ahead.join(',');
  useEffect(() => {
    if (!opened || !aheadKey) return;
    for (const id of aheadKey.split(',')) new window.Image().src = photoUrl(Number(id), 'web');
  }, [opened, aheadKey]);
  if (!current) return null;
  const { scale, x, y } = zoom.view;
  const zoomed = scale > 1;
  const percent = Math.round(scale * 100);
  /** Zoom by a step (the buttons and keys), saying the new zoom to screen readers. */
  const step = (d: -1 | 1) => {
    const next = Math.min(MAX_ZOOM, Math.max(1, Math.round(scale) + d));
    zoom.zoomTo(next);
    setZoomSaid(t('objects.photos.zoomLevel', { n: next * 100 }));
  };
  const onKey = (e: KeyboardEvent) => {
    const pan = (zoom.stage.current?.clientWidth ?? 400) * 0.15;
    if (e.key === '+' || e.key === '=') step(1);
    else if (e.key === '-' || e.key === '_') step(-1);
    else if (e.key === '0' && zoomed) {
      zoom.reset();
      setZoomSaid(t('objects.photos.zoomLevel', { n: 100 }));
    } else if (zoomed && e.key.startsWith('Arrow')) {
      // Zoomed, the arrows move about the photo: the part to the left comes into view on the left arrow.
      const d = { ArrowLeft: [pan, 0], ArrowRight: [-pan, 0], ArrowUp: [0, pan], ArrowDown: [0, -pan] }[e.key];
      if (!d) return;
      zoom.panBy(d[0]!, d[1]!);
    } else if (count > 1 && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) go(e.key === 'ArrowLeft' ? -1 : 1);
    else return;
    e.preventDefault();
  };
  const size = originalSize(current, t);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      fullScreen={phone}
      size={phone ? undefined : 'min(92vw, 1280px)'}
      centered
      title={alt(at)}
      onKeyDown={onKey}
      closeButtonProps={{ 'aria-label': t('common.close'), size: 'lg' }}
      styles={{ title: { overflowWrap: 'anywhere' }, body: phone ? { paddingInline: 0 } : undefined }}
      data-testid="photo-lightbox"
    >
      <Box
        ref={zoom.stage}
        pos="relative"
        bg="dark.8"
        style={{ touchAction: 'none', userSelect: 'none', overflow: 'hidden', cursor: zoomed ? (zoom.held ? 'grabbing' : 'grab') : 'zoom-in' }}
        {...zoom.handlers}
        data-testid="lightbox-stage"
        data-zoom={scale.toFixed(2)}
      >
        <div
          style={{
            transform: `translate3d(${x + zoom.slide}px, ${y}px, 0) scale(${scale})`,
            transition: zoom.held ? 'none' : 'transform 180ms ease-out',
            willChange: 'transform',
          }}
        >
          <Photo key={current.id} id={current.id} alt={alt(at)} fit="contain" h={phone ? 'calc(100dvh - 12rem)' : '72vh'} size="web" />
        </div>
        {count > 1 && (
          <>
            <PhotoStep dir={-1} onClick={() => go(-1)} large testId="lightbox-prev" />
            <PhotoStep dir={1} onClick={() => go(1)} large testId="lightbox-next" />
          </>
        )}
      </Box>
      <Group justify="space-between" align="center" gap="xs" pt="xs" px={phone ? 'xs' : 0} wrap="wrap">
        {/* At its limit a zoom button is marked disabled but keeps the focus (a disabled button
            dropped it out of the dialog, and the keys + and − with it). */}
        <Group gap={6} wrap="nowrap">
          <ActionIcon variant="default" size={44} radius="xl" onClick={() => step(-1)} data-disabled={!zoomed || undefined} aria-disabled={!zoomed} aria-label={t('objects.photos.zoomOut')} aria-keyshortcuts="-" data-testid="lightbox-zoom-out">
            <IconZoomOut size={22} />
          </ActionIcon>
          <Text size="sm" w="3.6em" ta="center" aria-hidden data-testid="lightbox-zoom">
            {percent}&nbsp;%
          </Text>
          <ActionIcon variant="default" size={44} radius="xl" onClick={() => step(1)} data-disabled={scale >= MAX_ZOOM || undefined} aria-disabled={scale >= MAX_ZOOM} aria-label={t('objects.photos.zoomIn')} aria-keyshortcuts="+" data-testid="lightbox-zoom-in">
            <IconZoomIn size={22} />
          </ActionIcon>
          <VisuallyHidden aria-live="polite" aria-atomic>
            {zoomSaid}
          </VisuallyHidden>
        </Group>
        <Text size="md" fw={600} aria-hidden data-testid="lightbox-position">
          {at + 1} / {count}
        </Text>
        <VisuallyHidden aria-live="polite" aria-atomic>
          {t('objects.photos.counter', { n: at + 1, count })}
        </VisuallyHidden>
        <Anchor href={fileUrl(String(current.id), current.name)} target="_blank" rel="noopener" size="sm" data-testid="lightbox-original" style={{ display: 'inline-flex', alignItems: 'center', gap: 4, minHeight: 44 }}>
          <IconExternalLink size={16} aria-hidden />
          <span>
            {t('objects.photos.openOriginal')}
            {size && (
              <Text span size="xs" c="dimmed" ml={4}>
                ({size})
              </Text>
            )}
            <VisuallyHidden>{t('objects.photos.newTab')}</VisuallyHidden>
          </span>
        </Anchor>
      </Group>
    </Modal>
  );
}

/**
 * The view's photo carousel (interval 0: it never turns by itself): one photo at a time with
 * previous/next (also the arrow keys and a swipe), a strip of small pictures to jump, and the photo
 * enlarged in a dialog on click (PhotoLightbox), browsable the same ways.
 */
export function PhotoCarousel({ photos, title }: { photos: TPhoto[]; title: string }) {
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  const [full, setFull] = useState(false);
  const count = photos.length;
  const at = Math.min(index, Math.max(0, count - 1));
  const go = (d: number) => setIndex((i) => (((Math.min(i, count - 1) + d) % count) + count) % count);
  const swipe = useSwipe((d) => count > 1 && go(d));
  if (count === 0)
    return (
      <Card withBorder padding="sm" data-testid="photo-carousel" data-count={0}>
        <Group gap="xs" c="dimmed">
          <IconPhoto size={20} aria-hidden />
          <Text size="sm" c="dimmed">
            {t('objects.photos.none')}
          </Text>
        </Group>
      </Card>
    );
  const current = photos[at]!;
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowLeft') {
      e.preventDefault();
      go(-1);
    } else if (e.key === 'ArrowRight') {
      e.preventDefault();
      go(1);
    }
  };
  const alt = (i: number) => t('objects.photos.alt', { title, n: i + 1, count });
  return (
    <Card withBorder padding={0} data-testid="photo-carousel" data-count={count}>
      <section aria-roledescription="carousel" aria-label={t('objects.photos.title')} onKeyDown={onKey}>
        <Box pos="relative" bg="dark.8" style={{ touchAction: 'pan-y pinch-zoom' }} {...swipe}>
          <UnstyledButton onClick={() => setFull(true)} w="100%" aria-label={t('objects.photos.openFull', { n: at + 1, count })} data-testid="photo-open" style={{ display: 'block' }}>
            <Photo id={current.id} alt={alt(at)} fit="contain" h={360} size="web" />
          </UnstyledButton>
          {count > 1 && (
            <>
              <PhotoStep dir={-1} onClick={() => go(-1)} testId="photo-prev" />
              <PhotoStep dir={1} onClick={() => go(1)} testId="photo-next" />
            </>
          )}
          <Text size="xs" pos="absolute" bottom={8} right={8} px={8} py={2} c="white" bg="rgba(0,0,0,0.65)" style={{ borderRadius: 4 }} aria-live="polite" data-testid="photo-counter">
            {at + 1} / {count}
          </Text>
        </Box>
        {count > 1 && (
          <Group gap={6} p={6} wrap="nowrap" style={{ overflowX: 'auto' }} data-testid="photo-strip">
            {photos.map((p, i) => (
              <UnstyledButton
                key={p.id}
                onClick={() => setIndex(i)}
                aria-label={t('objects.photos.show', { n: i + 1, count })}
                aria-current={i === at ? 'true' : undefined}
                style={{ flex: '0 0 72px', outline: i === at ? '2px solid var(--mantine-color-blue-6)' : undefined, outlineOffset: 1, borderRadius: 4, overflow: 'hidden' }}
              >
                <Photo id={p.id} alt="" h={54} />
              </UnstyledButton>
            ))}
          </Group>
        )}
      </section>
      <PhotoLightbox opened={full} onClose={() => setFull(false)} photos={photos} at={at} go={go} alt={alt} />
    </Card>
  );
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
