// The layers of the Leaflet map (leaflet-canvas.tsx): the map itself, its tiles, the exact point,
// the approximate circle and the search results' markers, each an effect of its own.
import L from './leaflet-global.ts';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { OBJECT, href } from '@crm/contract/resources';

export type TLatLng = [number, number];

/** One object on a map of many (search results). */
export type TMapMarker = {
  id: number;
  latitude: number;
  longitude: number;
  /** '#0042': the link text and the marker's accessible name. */
  reference: string;
  title: string | null;
  /** Further lines of the popup (prices). */
  lines: string[];
};

export type LeafletCanvasProps = {
  tileUrl: string | null;
  attribution: { text: string; url: string } | null;
  /** The map's accessible name. */
  label: string;
  height: number;
  center: TLatLng;
  zoom: number;
  point: TLatLng | null;
  circle: { center: TLatLng; radius: number } | null;
  markers: TMapMarker[] | null;
  editable: boolean;
  /** Edit mode: a click on the map. */
  onMapClick?: (at: TLatLng) => void;
  onPointMove?: (at: TLatLng) => void;
  onCircleMove?: (at: TLatLng) => void;
  onZoom?: (zoom: number) => void;
  /** Markers: the popup's link was followed. */
  onOpen?: (id: number) => void;
  texts: { zoomIn: string; zoomOut: string; closePopup: string; point: string; circleCentre: string; open: string; tilesFailed: string; cluster: (n: number) => string };
  testId?: string;
};

/** What the map's effects share: the map, its layers, the latest props, and how to fit the view again after a resize. */
export type MapCtx = {
  mapRef: RefObject<L.Map | null>;
  layers: RefObject<{ tiles?: L.TileLayer; point?: L.Marker; circle?: L.Circle; handle?: L.Marker; markers?: L.LayerGroup }>;
  props: RefObject<LeafletCanvasProps>;
  refit: RefObject<(() => void) | null>;
};

const pinIcon = (className: string) =>
  L.divIcon({ className: `crm-map-pin ${className}`, html: '<span aria-hidden="true"></span>', iconSize: [26, 26], iconAnchor: [13, 26], popupAnchor: [0, -24] });
const handleIcon = () => L.divIcon({ className: 'crm-map-handle', html: '', iconSize: [16, 16], iconAnchor: [8, 8] });
const round6 = (n: number) => Math.round(n * 1e6) / 1e6;
const toLatLng = (l: L.LatLng): TLatLng => [round6(l.lat), round6(l.lng)];

/** A marker the keyboard reaches (Tab) and opens (Enter or Space), named for screen readers. */
const keyboardReady = new WeakSet<HTMLElement>();
function markKeyboard(marker: L.Marker, name: string, onActivate?: () => void) {
  const el = marker.getElement();
  if (!el) return;
  el.setAttribute('aria-label', name);
  el.setAttribute('title', name);
  if (!onActivate) {
    el.setAttribute('role', 'img');
    return;
  }
  el.setAttribute('role', 'button');
  el.tabIndex = 0;
  if (keyboardReady.has(el)) return;
  keyboardReady.add(el);
  el.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onActivate();
    }
  });
}

/** The map, once, in `holder`. */
export function useMapOnce(c: MapCtx, holder: RefObject<HTMLDivElement | null>, p: LeafletCanvasProps) {
  const { mapRef, layers, props, refit } = c;
  useEffect(() => {
    const el = holder.current!;
    const map = L.map(el, { center: p.center, zoom: p.zoom, zoomControl: false, attributionControl: true, worldCopyJump: true });
    L.control.zoom({ zoomInTitle: p.texts.zoomIn, zoomOutTitle: p.texts.zoomOut }).addTo(map);
    map.attributionControl.setPrefix(false);
    const container = map.getContainer();
    container.setAttribute('role', 'region');
    container.setAttribute('aria-label', p.label);
    map.on('click', (e: L.LeafletMouseEvent) => {
      if (props.current.editable) props.current.onMapClick?.(toLatLng(e.latlng));
    });
    map.on('zoomend', () => props.current.onZoom?.(map.getZoom()));
    map.on('popupopen', (e: L.PopupEvent) => {
      const close = e.popup.getElement()?.querySelector<HTMLElement>('.leaflet-popup-close-button');
      close?.setAttribute('aria-label', props.current.texts.closePopup);
      close?.setAttribute('title', props.current.texts.closePopup);
      e.popup.getElement()?.querySelector<HTMLElement>('a.crm-map-open')?.focus();
    });
    mapRef.current = map;
    // Until the user moves the map, a new size (layout settling, a rotated phone) fits it again.
    map.on('dragstart', () => (refit.current = null));
    container.addEventListener('wheel', () => (refit.current = null), { passive: true });
    const resize = new ResizeObserver(() => {
      map.invalidateSize();
      refit.current?.();
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      map.remove();
      mapRef.current = null;
      layers.current = {};
    };
    // Created once; later changes of the props are applied by the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    mapRef.current?.getContainer().setAttribute('aria-label', p.label);
  }, [mapRef, p.label]);
}

/**
 * The tiles: a layer that reports whether any tile arrives. Without tiles (offline, blocked, no
 * such server) the map keeps its plain background, markers and circle, and says so.
 */
export function useTiles(c: MapCtx, p: LeafletCanvasProps) {
  const { mapRef, layers } = c;
  const [tiles, setTiles] = useState<'loading' | 'ok' | 'failed'>(p.tileUrl ? 'loading' : 'failed');
  useEffect(() => {
    const map = mapRef.current!;
    layers.current.tiles?.remove();
    if (!p.tileUrl) {
      setTiles('failed');
      return;
    }
    setTiles('loading');
    const attribution = p.attribution ? `<a href="${escapeHtml(p.attribution.url)}" target="_blank" rel="noopener noreferrer">${escapeHtml(p.attribution.text)}</a>` : undefined;
    let loaded = 0;
    // The tiles carry this site's origin as their referrer (the pages' own policy sends none): tile
    // servers such as OpenStreetMap's may refuse requests without one.
    const layer = L.tileLayer(p.tileUrl, { maxZoom: 19, attribution, crossOrigin: false, referrerPolicy: 'strict-origin-when-cross-origin' });
    layer.on('tileload', () => {
      loaded++;
      setTiles('ok');
    });
    layer.on('tileerror', () => {
      if (!loaded) setTiles('failed');
    });
    layer.addTo(map);
    layers.current.tiles = layer;
    // Nothing at all within 12 s (a black-holed host): the same note.
    const timer = window.setTimeout(() => {
      if (!loaded) setTiles('failed');
    }, 12000);
    return () => window.clearTimeout(timer);
  }, [mapRef, layers, p.tileUrl, p.attribution]);
  return tiles;
}

/** The exact point. */
export function usePoint(c: MapCtx, p: LeafletCanvasProps) {
  const { mapRef, layers, props } = c;
  const pointKey = p.point ? `${p.point[0]},${p.point[1]}` : '';
  useEffect(() => {
    const map = mapRef.current!;
    const l = layers.current;
    if (!p.point) {
      l.point?.remove();
      l.point = undefined;
      return;
    }
    if (!l.point) {
      l.point = L.marker(p.point, { icon: pinIcon('crm-map-pin-point'), draggable: p.editable, keyboard: false, autoPan: true }).addTo(map);
      l.point.on('dragend', () => props.current.onPointMove?.(toLatLng(l.point!.getLatLng())));
      markKeyboard(l.point, p.texts.point);
    } else l.point.setLatLng(p.point);
    // Typed coordinates far from the view: bring the point into it.
    if (!map.getBounds().contains(p.point)) map.panTo(p.point);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pointKey, p.editable]);
}

/** The approximate circle, and in edit mode a handle that moves its centre; shown whole when it first appears (view mode). */
export function useCircle(c: MapCtx, p: LeafletCanvasProps) {
  const { mapRef, layers, props, refit } = c;
  const circleKey = p.circle ? `${p.circle.center[0]},${p.circle.center[1]},${p.circle.radius}` : '';
  useEffect(() => {
    const map = mapRef.current!;
    const l = layers.current;
    if (!p.circle) {
      l.circle?.remove();
      l.handle?.remove();
      l.circle = l.handle = undefined;
      return;
    }
    if (!l.circle) l.circle = L.circle(p.circle.center, { radius: p.circle.radius, className: 'crm-map-circle', interactive: false }).addTo(map);
    else {
      l.circle.setLatLng(p.circle.center);
      l.circle.setRadius(p.circle.radius);
    }
    if (p.editable && !map.getBounds().contains(p.circle.center)) map.panTo(p.circle.center);
    if (p.editable) {
      if (!l.handle) {
        l.handle = L.marker(p.circle.center, { icon: handleIcon(), draggable: true, keyboard: false }).addTo(map);
        l.handle.on('drag', () => l.circle?.setLatLng(l.handle!.getLatLng()));
        l.handle.on('dragend', () => props.current.onCircleMove?.(toLatLng(l.handle!.getLatLng())));
        markKeyboard(l.handle, p.texts.circleCentre);
      } else l.handle.setLatLng(p.circle.center);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [circleKey, p.editable]);

  // Show the circle whole when it first appears (view mode).
  const fitted = useRef(false);
  useEffect(() => {
    if (fitted.current || p.editable || !layers.current.circle || p.point) return;
    fitted.current = true;
    const circle = layers.current.circle;
    const fit = () => mapRef.current?.fitBounds(circle.getBounds(), { padding: [16, 16] });
    fit();
    refit.current = fit;
  }, [mapRef, layers, refit, circleKey, p.editable, p.point]);
}

/** Many markers, each with a popup linking to its object; the map fits them. */
export function useMarkers(c: MapCtx, p: LeafletCanvasProps) {
  const { mapRef, layers, props, refit } = c;
  const markersKey = p.markers?.map((m) => `${m.id}:${m.latitude},${m.longitude}`).join(';') ?? '';
  useEffect(() => {
    const map = mapRef.current!;
    const l = layers.current;
    l.markers?.remove();
    l.markers = undefined;
    if (!p.markers) return;
    // Pins close together gather into a numbered circle; a click (or Enter) on it zooms in or, at
    // the closest zoom, spreads its pins out.
    const group = L.markerClusterGroup({
      showCoverageOnHover: false,
      maxClusterRadius: 40,
      spiderfyOnMaxZoom: true,
      // A button in the tab order (Enter zooms in), named by its hidden text: "5 properties here, zoom in".
      iconCreateFunction: (cluster) => {
        const n = cluster.getChildCount();
        return L.divIcon({
          className: 'crm-map-cluster',
          html: `<span aria-hidden="true">${n}</span><span class="crm-map-sr">${escapeHtml(props.current.texts.cluster(n))}</span>`,
          iconSize: [36, 36],
        });
      },
    });
    for (const m of p.markers) {
      const marker = L.marker([m.latitude, m.longitude], { icon: pinIcon('crm-map-pin-result'), keyboard: false, riseOnHover: true });
      // Drawn when it opens, from the markers as they are now: the same pins may come back with other
      // lines (services ticked, another language), which do not rebuild the layer.
      marker.bindPopup(() => popupContent(props.current.markers?.find((x) => x.id === m.id) ?? m, props.current.texts.open, (id) => props.current.onOpen?.(id)), { minWidth: 160, maxWidth: 260 });
      // The pin's element exists only while it is shown on its own (not gathered into a cluster).
      marker.on('add', () => markKeyboard(marker, [m.reference, m.title].filter(Boolean).join(' '), () => marker.openPopup()));
      group.addLayer(marker);
    }
    group.addTo(map);
    l.markers = group;
    const list = p.markers;
    // Without animation: the pins stand where they will stay at once (a click during a zoom
    // animation landed on a pin that the cluster layer then redrew, closing its popup).
    const fit = () => {
      if (list.length === 1) map.setView([list[0]!.latitude, list[0]!.longitude], 15, { animate: false });
      else if (list.length > 1)
        map.fitBounds(L.latLngBounds(list.map((m) => [m.latitude, m.longitude] as TLatLng)), { paddingTopLeft: [40, 80], paddingBottomRight: [40, 40], maxZoom: 16, animate: false });
    };
    map.invalidateSize();
    fit();
    refit.current = fit;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [markersKey]);
}

function popupContent(m: TMapMarker, openText: string, onOpen: (id: number) => void): HTMLElement {
  const box = document.createElement('div');
  box.className = 'crm-map-popup';
  const a = document.createElement('a');
  a.href = href(OBJECT.screens.view, { id: m.id });
  a.className = 'crm-map-open';
  a.textContent = m.reference;
  a.title = openText;
  a.setAttribute('data-testid', 'map-popup-link');
  a.addEventListener('click', (e) => {
    if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    onOpen(m.id);
  });
  box.append(a);
  if (m.title) {
    const title = document.createElement('div');
    title.className = 'crm-map-popup-title';
    title.textContent = m.title;
    box.append(title);
  }
  for (const line of m.lines) {
    const div = document.createElement('div');
    div.textContent = line;
    box.append(div);
  }
  return box;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
