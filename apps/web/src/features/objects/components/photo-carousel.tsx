// The photos shown: a carousel with its thumbnails, and the lightbox that opens a photo whole.
import { ActionIcon, Anchor, Box, Card, Group, Modal, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useEffect, useRef, useState, type KeyboardEvent, type TouchEvent } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { IconPhoto } from '../../../components/icons.ts';
import { IconChevronLeft, IconChevronRight, IconExternalLink, IconZoomIn, IconZoomOut } from '../icons.ts';
import { fileUrl, formatFileSize } from '../../../components/file-links.tsx';
import { MAX_ZOOM, usePhotoZoom } from './photo-zoom.ts';
import { useMedia } from '../../../lib/first-paint.ts';
import { Photo, photoUrl, type TPhoto } from './object-photos.tsx';

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
