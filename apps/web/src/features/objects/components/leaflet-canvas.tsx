// The Leaflet map itself. Loaded on demand (object-map.tsx imports it lazily), so Leaflet's script
// and stylesheet reach the browser only on a screen that shows a map.
// Leaflet's global first: the cluster plugin adds itself to it.
import './leaflet-global.ts';
import type L from './leaflet-global.ts';
import 'leaflet.markercluster';
import 'leaflet/dist/leaflet.css';
import 'leaflet.markercluster/dist/MarkerCluster.css';
import './object-map.css';
import { useRef } from 'react';
import { useCircle, useMapOnce, useMarkers, usePoint, useTiles, type LeafletCanvasProps, type MapCtx } from './leaflet-layers.ts';

export type { LeafletCanvasProps, TLatLng, TMapMarker } from './leaflet-layers.ts';

export default function LeafletCanvas(p: LeafletCanvasProps) {
  const holder = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const layers = useRef<{ tiles?: L.TileLayer; point?: L.Marker; circle?: L.Circle; handle?: L.Marker; markers?: L.LayerGroup }>({});
  const props = useRef(p);
  props.current = p;
  const refit = useRef<(() => void) | null>(null);
  const c: MapCtx = { mapRef, layers, props, refit };
  useMapOnce(c, holder, p);
  const tiles = useTiles(c, p);
  usePoint(c, p);
  useCircle(c, p);
  useMarkers(c, p);

  return (
    <div className="crm-map" style={{ height: p.height }} data-testid={p.testId} data-tiles={tiles}>
      <div ref={holder} className="crm-map-canvas" />
      {tiles === 'failed' && (
        <div className="crm-map-note" role="status" data-testid={p.testId ? `${p.testId}-offline` : undefined}>
          {p.texts.tilesFailed}
        </div>
      )}
    </div>
  );
}
