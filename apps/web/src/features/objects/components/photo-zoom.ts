import { useCallback, useEffect, useRef, useState, type DragEvent, type RefObject, type MouseEvent as ReactMouseEvent, type PointerEvent as ReactPointerEvent } from 'react';

/** How the photo is seen: its zoom (1: the whole photo in the stage) and how far it is moved from the middle, in px. */
export type PhotoView = { scale: number; x: number; y: number };

export const WHOLE_PHOTO: PhotoView = { scale: 1, x: 0, y: 0 };
export const MAX_ZOOM = 4;
/** What a double tap or double click zooms to. */
export const DOUBLE_TAP_ZOOM = 2;
/** A finger moved less than this is a tap; a swipe needs at least SWIPE_MIN sideways. */
const TAP_SLOP = 10;
const SWIPE_MIN = 40;
const DOUBLE_TAP_MS = 350;

type Point = { x: number; y: number };
type Gesture =
  | { kind: 'swipe' | 'pan'; p0: Point; v0: PhotoView; moved: boolean; type: string }
  | { kind: 'pinch'; d0: number; m0: Point; v0: PhotoView };

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
const middle = (a: Point, b: Point) => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
const clampScale = (s: number) => Math.min(MAX_ZOOM, Math.max(1, s));

/** The photo's zoom and position in `stage`, kept within the photo's edges; another photo (`photoKey`) is seen whole. */
function usePhotoView(stage: RefObject<HTMLDivElement | null>, photoKey: unknown) {
  const [view, setView] = useState<PhotoView>(WHOLE_PHOTO);
  const viewNow = useRef(view);
  viewNow.current = view;

  // Another photo is seen whole.
  useEffect(() => setView(WHOLE_PHOTO), [photoKey]);

  /** The stage's size and the photo's drawn size in it at 1×. */
  const box = useCallback(() => {
    const el = stage.current;
    const W = el?.clientWidth || 1;
    const H = el?.clientHeight || 1;
    const img = el?.querySelector('img');
    const nw = img?.naturalWidth || W;
    const nh = img?.naturalHeight || H;
    const k = Math.min(W / nw, H / nh);
    return { W, H, w: nw * k, h: nh * k };
  }, [stage]);

  /** The view kept within the photo's edges: no more empty stage shows than at 1×. */
  const within = useCallback(
    (v: PhotoView): PhotoView => {
      if (v.scale <= 1) return WHOLE_PHOTO;
      const { W, H, w, h } = box();
      const mx = Math.max(0, (v.scale * w - W) / 2);
      const my = Math.max(0, (v.scale * h - H) / 2);
      return { scale: v.scale, x: Math.min(mx, Math.max(-mx, v.x)), y: Math.min(my, Math.max(-my, v.y)) };
    },
    [box],
  );

  /** Zoom to `scale`, the point `at` (from the stage's middle) staying where it is on the screen. */
  const zoomTo = useCallback(
    (scale: number, at: Point = { x: 0, y: 0 }) =>
      setView((v) => {
        const s = clampScale(scale);
        const k = s / v.scale;
        return within({ scale: s, x: at.x - k * (at.x - v.x), y: at.y - k * (at.y - v.y) });
      }),
    [within],
  );
  const panBy = useCallback((dx: number, dy: number) => setView((v) => within({ ...v, x: v.x + dx, y: v.y + dy })), [within]);
  const toggleAt = useCallback((at: Point) => (viewNow.current.scale > 1 ? setView(WHOLE_PHOTO) : zoomTo(DOUBLE_TAP_ZOOM, at)), [zoomTo]);
  return { view, setView, viewNow, within, zoomTo, panBy, toggleAt };
}

/**
 * Zoom, pan and swipe of the enlarged photo, with pointer events (a mouse, a finger, a pen alike):
 * - one pointer on the whole photo: the photo follows it sideways, and letting go after at least
 *   40 px, mostly sideways, goes to the next or previous photo (`go`); less, and it slides back;
 * - one pointer on a zoomed photo: it pans (within the photo's edges), never changing photo;
 * - two fingers: pinch zoom about the point between them (1× to 4×), panning as they move;
 * - a double tap (a double click with a mouse) zooms to 2× about that point, or back to the whole.
 * The stage needs `touch-action: none` (the browser leaves every gesture to these handlers) and
 * `overflow: hidden`; the photo inside it is an <img> shown whole (object-fit: contain), whose
 * drawn size bounds the panning.
 */
export function usePhotoZoom({ go, canSwipe, photoKey }: { go: (d: -1 | 1) => void; canSwipe: boolean; photoKey: unknown }) {
  const stage = useRef<HTMLDivElement | null>(null);
  const { view, setView, viewNow, within, zoomTo, panBy, toggleAt } = usePhotoView(stage, photoKey);
  /** How far the whole photo follows a swipe, in px. */
  const [slide, setSlide] = useState(0);
  /** A pointer is down: the photo moves with it at once (no transition). */
  const [held, setHeld] = useState(false);
  const pointers = useRef(new Map<number, Point>());
  const gesture = useRef<Gesture | null>(null);
  const lastTap = useRef<{ at: number; p: Point } | null>(null);
  const lastPointerType = useRef('mouse');

  const fromMiddle = (e: { clientX: number; clientY: number }): Point => {
    const r = stage.current!.getBoundingClientRect();
    return { x: e.clientX - r.left - r.width / 2, y: e.clientY - r.top - r.height / 2 };
  };
  /** A gesture starts (or starts again with the pointers still down). */
  const begin = (type: string) => {
    const ps = [...pointers.current.values()];
    if (ps.length >= 2) gesture.current = { kind: 'pinch', d0: Math.max(1, distance(ps[0]!, ps[1]!)), m0: middle(ps[0]!, ps[1]!), v0: viewNow.current };
    else if (ps.length === 1) gesture.current = { kind: viewNow.current.scale > 1 ? 'pan' : 'swipe', p0: ps[0]!, v0: viewNow.current, moved: false, type };
    else gesture.current = null;
  };
  /** The photo after a swipe comes in from the side it was swiped from. */
  const slideIn = (d: -1 | 1) => {
    go(d);
    const W = stage.current?.clientWidth ?? 300;
    setHeld(true);
    setSlide(d * W * 0.3);
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        setHeld(false);
        setSlide(0);
      }),
    );
  };

  const onPointerDown = (e: ReactPointerEvent<HTMLElement>) => {
    // The buttons over the photo do their own work.
    if ((e.target as Element).closest('button, a') || (e.pointerType === 'mouse' && e.button !== 0)) return;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    lastPointerType.current = e.pointerType;
    pointers.current.set(e.pointerId, fromMiddle(e));
    begin(e.pointerType);
    setHeld(true);
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLElement>) => {
    if (!pointers.current.has(e.pointerId)) return;
    pointers.current.set(e.pointerId, fromMiddle(e));
    const g = gesture.current;
    if (!g) return;
    if (g.kind === 'pinch') {
      const [a, b] = [...pointers.current.values()];
      if (!a || !b) return;
      const m = middle(a, b);
      const s = clampScale((g.v0.scale * distance(a, b)) / g.d0);
      const k = s / g.v0.scale;
      // The photo's point that was between the fingers stays between them.
      setView(within({ scale: s, x: m.x - k * (g.m0.x - g.v0.x), y: m.y - k * (g.m0.y - g.v0.y) }));
      return;
    }
    const p = pointers.current.get(e.pointerId)!;
    const dx = p.x - g.p0.x;
    const dy = p.y - g.p0.y;
    if (Math.hypot(dx, dy) > TAP_SLOP) g.moved = true;
    if (g.kind === 'pan') setView(within({ scale: g.v0.scale, x: g.v0.x + dx, y: g.v0.y + dy }));
    else if (canSwipe && g.moved) setSlide(dx);
  };
  const onPointerEnd = (e: ReactPointerEvent<HTMLElement>) => {
    if (!pointers.current.has(e.pointerId)) return;
    const p = fromMiddle(e);
    pointers.current.delete(e.pointerId);
    const g = gesture.current;
    if (pointers.current.size > 0) {
      // One finger of a pinch lifted: the other pans (or swipes) on from where it is.
      begin(lastPointerType.current);
      return;
    }
    gesture.current = null;
    setHeld(false);
    if (!g || g.kind === 'pinch') {
      if (viewNow.current.scale < 1.05) setView(WHOLE_PHOTO);
      return;
    }
    const dx = p.x - g.p0.x;
    const dy = p.y - g.p0.y;
    if (g.kind === 'swipe') {
      if (e.type !== 'pointercancel' && canSwipe && Math.abs(dx) >= SWIPE_MIN && Math.abs(dx) > 1.5 * Math.abs(dy)) {
        // Finger to the left: the next photo comes in from the right.
        slideIn(dx < 0 ? 1 : -1);
        return;
      }
      setSlide(0);
    }
    // A tap; two in a row on a touch screen zoom (a mouse has its double click).
    if (!g.moved && g.type !== 'mouse' && e.type !== 'pointercancel') {
      const now = performance.now();
      const last = lastTap.current;
      if (last && now - last.at < DOUBLE_TAP_MS && distance(last.p, p) < 40) {
        lastTap.current = null;
        toggleAt(p);
      } else lastTap.current = { at: now, p };
    }
  };
  const onDoubleClick = (e: ReactMouseEvent<HTMLElement>) => {
    // A touch screen's double tap is handled above (some browsers also send a double click for it).
    if (lastPointerType.current !== 'mouse' || (e.target as Element).closest('button, a')) return;
    toggleAt(fromMiddle(e));
  };

  return {
    stage,
    view,
    slide,
    held,
    zoomTo,
    panBy,
    reset: () => setView(WHOLE_PHOTO),
    handlers: { onPointerDown, onPointerMove, onPointerUp: onPointerEnd, onPointerCancel: onPointerEnd, onDoubleClick, onDragStart: (e: DragEvent) => e.preventDefault() },
  };
}
