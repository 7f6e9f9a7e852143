import { ActionIcon, Box, Card, Group, Text, Tooltip } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TFileItem } from '@crm/contract';
import { IconChevronLeft, IconChevronRight, IconGripVertical } from '../icons.ts';
import { describeError } from '../../../lib/errors.ts';
import { objectKeys, reorderPhotos } from '../api/objects.ts';
import { Photo } from './photo.tsx';
import { RemoveButton } from '../../../components/remove-button.tsx';

export type OrderStatus = 'idle' | 'saving' | 'saved';

/**
 * The photos' order sent to the server one request at a time: moves made while one is on its way are
 * sent right after it, as the newest order, so an older answer never overwrites a newer order on the
 * screen and the server never receives two orders out of turn.
 */
export function usePhotoOrder(objectId: number, setList: (items: TFileItem[]) => void, onSaved: () => void, onError: (message: string) => void) {
  const qc = useQueryClient();
  const wanted = useRef<number[] | null>(null);
  const sending = useRef(false);
  const [status, setStatus] = useState<OrderStatus>('idle');
  const sendOrder = async () => {
    if (sending.current) return;
    sending.current = true;
    setStatus('saving');
    try {
      while (wanted.current) {
        const ids = wanted.current;
        wanted.current = null;
        try {
          const res = await reorderPhotos(ids);
          if (!wanted.current) setList(res.items);
        } catch (e) {
          wanted.current = null;
          onError(describeError(e).message);
          void qc.invalidateQueries({ queryKey: objectKeys.photos(objectId) });
          setStatus('idle');
          return;
        }
      }
      setStatus('saved');
      onSaved();
    } finally {
      sending.current = false;
    }
  };
  return {
    status,
    send: (ids: number[]) => {
      wanted.current = ids;
      void sendOrder();
    },
  };
}

/**
 * Touch and pen: the grip handle is dragged with pointer events (phones have no native drag and
 * drop); the photo under the finger is the target, and letting go moves the photo there. A mouse
 * drags the card itself (native drag and drop).
 */
export function usePhotoDrag(move: (from: number, to: number) => void) {
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const photoIndexAt = (x: number, y: number) => {
    const el = document.elementFromPoint(x, y)?.closest<HTMLElement>('[data-photo-index]');
    return el ? Number(el.dataset.photoIndex) : null;
  };
  const stop = () => {
    setDragging(null);
    setOver(null);
  };
  return {
    dragging,
    over,
    setDragging,
    handle: (i: number) => ({
      onPointerDown: (e: PointerEvent) => {
        if (e.pointerType === 'mouse') return;
        e.currentTarget.setPointerCapture(e.pointerId);
        setDragging(i);
        setOver(i);
      },
      onPointerMove: (e: PointerEvent) => {
        if (dragging == null || e.pointerType === 'mouse') return;
        setOver(photoIndexAt(e.clientX, e.clientY));
      },
      onPointerUp: (e: PointerEvent) => {
        if (dragging == null || e.pointerType === 'mouse') return;
        const from = dragging;
        const to = photoIndexAt(e.clientX, e.clientY);
        stop();
        if (to != null) move(from, to);
      },
      onPointerCancel: stop,
    }),
  };
}

type Drag = ReturnType<typeof usePhotoDrag>;

/** One photo of the editor: the cover mark, the grip (drag, or the arrow keys), earlier, later, delete. */
export function PhotoTile({ p, i, count, drag, move, focusOn, onDelete }: { p: TFileItem; i: number; count: number; drag: Drag; move: (from: number, to: number) => void; focusOn: (id: number, ...testIds: string[]) => void; onDelete: () => void }) {
  const { t } = useTranslation();
  const step = (to: number, testIds: [string, string]) => () => {
    move(i, to);
    focusOn(p.id, ...testIds);
  };
  return (
    <Card
      withBorder
      padding={4}
      role="listitem"
      draggable
      onDragStart={(e) => {
        drag.setDragging(i);
        e.dataTransfer.effectAllowed = 'move';
        e.dataTransfer.setData('text/plain', String(p.id));
      }}
      onDragEnd={() => drag.setDragging(null)}
      onDragOver={(e) => {
        e.preventDefault();
        e.dataTransfer.dropEffect = 'move';
      }}
      onDrop={(e) => {
        e.preventDefault();
        const from = drag.dragging;
        drag.setDragging(null);
        if (from != null) move(from, i);
      }}
      data-testid="photo-item"
      data-photo-id={p.id}
      data-photo-index={i}
      style={{ opacity: drag.dragging === i ? 0.5 : 1, cursor: 'grab', outline: drag.over === i && drag.dragging !== i ? '2px dashed var(--mantine-color-blue-7)' : undefined }}
    >
      <Box pos="relative">
        <Photo id={p.id} alt={t('objects.photos.position', { n: i + 1, count, name: p.userName })} h={96} />
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
            aria-label={t('objects.photos.moveHandleLabel', { n: i + 1, count })}
            aria-keyshortcuts="ArrowLeft ArrowRight"
            onKeyDown={(e) => {
              const by = e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : 0;
              if (!by) return;
              e.preventDefault();
              move(i, i + by);
            }}
            data-testid="photo-handle"
            {...drag.handle(i)}
            style={{ touchAction: 'none' }}
          >
            <IconGripVertical size={16} />
          </ActionIcon>
        </Tooltip>
        <Group gap={2} wrap="nowrap">
          <ActionIcon variant="subtle" size="sm" disabled={i === 0} onClick={step(i - 1, ['photo-earlier', 'photo-later'])} aria-label={t('objects.photos.moveEarlier')} data-testid="photo-earlier">
            <IconChevronLeft size={16} />
          </ActionIcon>
          <ActionIcon variant="subtle" size="sm" disabled={i === count - 1} onClick={step(i + 1, ['photo-later', 'photo-earlier'])} aria-label={t('objects.photos.moveLater')} data-testid="photo-later">
            <IconChevronRight size={16} />
          </ActionIcon>
          <RemoveButton label={t('objects.photos.delete')} onClick={onDelete} size="sm" testId="photo-delete" />
        </Group>
      </Group>
    </Card>
  );
}
