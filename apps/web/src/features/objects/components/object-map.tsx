import { Alert, Group, NumberInput, SegmentedControl, Skeleton, Stack, Switch, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Component, lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useNavigate } from 'react-router';
import { MAP_CIRCLE, MAP_DEFAULTS, circleCentreAround, circleHidesPoint } from '@crm/contract/object-fields';
import { webConfigQuery } from '../../../lib/web-config.ts';
import { ClientOnly } from '../../../components/client-only.tsx';
import type { LeafletCanvasProps, TLatLng, TMapMarker } from './leaflet-canvas.tsx';
import { IconMapOff } from './search-icons.ts';
import { OBJECT, href } from '@crm/contract/resources';

export type { TMapMarker };

/** The map fields of an object (group "map"): the exact point, whether it is shown, the approximate circle. */
export type TMapValue = {
  latitude: number | null;
  longitude: number | null;
  displayCoordinates: boolean;
  /** The address is written and hidden in listings: the exact point is not shown to the public then either (decision 013). */
  addressHidden: boolean;
  mapZoom: number | null;
  mapCircleLatitude: number | null;
  mapCircleLongitude: number | null;
  mapCircleRadius: number | null;
};

export type ObjectMapProps = { label?: string; testId?: string; height?: number } & (
  | { mode: 'view'; value: TMapValue }
  | { mode: 'edit'; value: TMapValue; onChange: (next: TMapValue) => void }
  | { mode: 'markers'; markers: TMapMarker[] }
);

// Leaflet and its stylesheet: fetched the first time a map is drawn, in the browser only (ClientOnly
// below: Leaflet reads `navigator` as it loads, and a screen drawn by the server shows the placeholder).
const LeafletCanvas = lazy(() => import('./leaflet-canvas.tsx'));

const hasPoint = (v: TMapValue) => v.latitude != null && v.longitude != null;
const hasCircle = (v: TMapValue) => v.mapCircleLatitude != null && v.mapCircleLongitude != null;
/** The exact point is what the public sees: chosen, and the address not hidden. */
const pointShown = (v: TMapValue) => v.displayCoordinates && !v.addressHidden;

/** What keeps a map value from being saved: field name → text key. Radius 40–10000 in steps of 10; a circle when the exact place is hidden. */
export function mapValueProblems(v: TMapValue): Partial<Record<keyof TMapValue, string>> {
  const out: Partial<Record<keyof TMapValue, string>> = {};
  const lat = (n: number | null) => n != null && (n < -90 || n > 90);
  const lng = (n: number | null) => n != null && (n < -180 || n > 180);
  if (lat(v.latitude)) out.latitude = 'objectsearch.map.badLatitude';
  if (lng(v.longitude)) out.longitude = 'objectsearch.map.badLongitude';
  if (lat(v.mapCircleLatitude)) out.mapCircleLatitude = 'objectsearch.map.badLatitude';
  if (lng(v.mapCircleLongitude)) out.mapCircleLongitude = 'objectsearch.map.badLongitude';
  if ((v.latitude == null) !== (v.longitude == null)) out[v.latitude == null ? 'latitude' : 'longitude'] = 'objectsearch.map.bothCoordinates';
  const r = v.mapCircleRadius;
  if (r != null && (r < MAP_CIRCLE.min || r > MAP_CIRCLE.max || r % MAP_CIRCLE.step !== 0)) out.mapCircleRadius = 'objectsearch.map.badRadius';
  // Hiding the exact place needs an area to show instead (once there is a place at all).
  if (!pointShown(v) && (hasPoint(v) || hasCircle(v) || r != null)) {
    if (!hasCircle(v)) out.mapCircleLatitude = 'objectsearch.map.circleRequired';
    if (r == null) out.mapCircleRadius = 'objectsearch.map.circleRequired';
  }
  return out;
}

/**
 * The property map (Leaflet, tiles from the server's MAP_TILE_URL), in three modes:
 * - view: the exact point, or the approximate circle when the exact place is not displayed;
 * - edit: a click (or dragging) sets the point or the circle's centre; the coordinates and the
 *   radius (40–10000 m, step 10, default 2500; required when the exact place is hidden) are also
 *   plain number inputs, so the place can be typed when the map cannot load;
 * - markers: search results, each marker (reachable by Tab) opens a popup linking to the object.
 * Without tiles the map says so and keeps working.
 */
export function ObjectMap(props: ObjectMapProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const config = useQuery(webConfigQuery);
  const label = props.label ?? t('objectsearch.map.label');
  const height = props.height ?? MAP_DEFAULTS.height;
  const testId = props.testId ?? 'object-map';
  const [clickSets, setClickSets] = useState<'point' | 'circle'>('point');

  const texts = useMemo(
    () => ({
      zoomIn: t('objectsearch.map.zoomIn'),
      zoomOut: t('objectsearch.map.zoomOut'),
      closePopup: t('objectsearch.map.closePopup'),
      point: t('objectsearch.map.point'),
      circleCentre: t('objectsearch.map.circleCentre'),
      open: t('objectsearch.map.open'),
      cluster: (n: number) => t('objectsearch.map.cluster', { count: n }),
      tilesFailed: props.mode === 'edit' ? `${t('objectsearch.map.tilesFailed')} ${t('objectsearch.map.typeCoordinates')}` : t('objectsearch.map.tilesFailed'),
    }),
    [t, props.mode],
  );
  const attribution = useMemo(
    () => (config.data ? { text: config.data.map.attribution, url: config.data.map.attributionUrl } : null),
    [config.data],
  );

  // Waiting for the settings (one small call per session); without them the map has no tiles.
  if (config.isPending) return <Skeleton height={height} data-testid={`${testId}-loading`} />;
  const tileUrl = config.data?.map.tileUrl ?? null;

  const canvasProps = (): Omit<LeafletCanvasProps, 'tileUrl' | 'attribution' | 'label' | 'height' | 'texts' | 'testId'> => {
    if (props.mode === 'markers') return { center: [MAP_DEFAULTS.latitude, MAP_DEFAULTS.longitude], zoom: MAP_DEFAULTS.zoom, point: null, circle: null, markers: props.markers, editable: false, onOpen: (id) => void navigate(href(OBJECT.screens.view, { id })) };
    const v = props.value;
    const point: TLatLng | null = hasPoint(v) ? [v.latitude!, v.longitude!] : null;
    const circle = hasCircle(v) ? { center: [v.mapCircleLatitude!, v.mapCircleLongitude!] as TLatLng, radius: v.mapCircleRadius ?? MAP_CIRCLE.default } : null;
    if (props.mode === 'view') {
      // The exact point when it is displayed (or when there is no circle to show instead).
      const showPoint = pointShown(v) || !circle ? point : null;
      const showCircle = !pointShown(v) ? circle : null;
      const center = showPoint ?? showCircle?.center ?? [MAP_DEFAULTS.latitude, MAP_DEFAULTS.longitude];
      return { center, zoom: showPoint ? (v.mapZoom ?? MAP_DEFAULTS.editorZoom) : MAP_DEFAULTS.zoom, point: showPoint, circle: showCircle, markers: null, editable: false };
    }
    const onChange = props.onChange;
    const center = point ?? circle?.center ?? [MAP_DEFAULTS.latitude, MAP_DEFAULTS.longitude];
    return {
      center,
      zoom: point || circle ? (v.mapZoom ?? MAP_DEFAULTS.editorZoom) : MAP_DEFAULTS.zoom,
      point,
      circle: pointShown(v) ? null : circle,
      markers: null,
      editable: true,
      onMapClick: ([lat, lng]) => {
        if (!pointShown(v) && clickSets === 'circle') onChange(withCircle(v, lat, lng));
        else onChange({ ...v, latitude: lat, longitude: lng, ...(pointShown(v) || hasCircle(v) ? {} : circleAround(lat, lng, v)) });
      },
      onPointMove: ([lat, lng]) => onChange({ ...v, latitude: lat, longitude: lng }),
      onCircleMove: ([lat, lng]) => onChange(withCircle(v, lat, lng)),
      onZoom: (z) => {
        if (z !== v.mapZoom) onChange({ ...v, mapZoom: z });
      },
    };
  };

  const map = (
    <MapBoundary fallback={<MapUnavailable height={height} testId={testId} />}>
      <ClientOnly fallback={<Skeleton height={height} data-testid={`${testId}-loading`} />}>
        <Suspense fallback={<Skeleton height={height} data-testid={`${testId}-loading`} />}>
          <LeafletCanvas tileUrl={tileUrl} attribution={attribution} label={label} height={height} texts={texts} testId={testId} {...canvasProps()} />
        </Suspense>
      </ClientOnly>
    </MapBoundary>
  );
  if (props.mode !== 'edit') return map;
  return (
    <Stack gap="sm">
      <MapEditorFields value={props.value} onChange={props.onChange} clickSets={clickSets} setClickSets={setClickSets} testId={testId} />
      {map}
    </Stack>
  );
}

const circleAt = (lat: number, lng: number, v: TMapValue) => ({ mapCircleLatitude: lat, mapCircleLongitude: lng, mapCircleRadius: v.mapCircleRadius ?? MAP_CIRCLE.default });
const withCircle = (v: TMapValue, lat: number, lng: number): TMapValue => ({ ...v, ...circleAt(lat, lng, v) });
/** A new circle for a hidden point: holding it, but not centred on it (the centre would be the address). */
const circleAround = (lat: number, lng: number, v: TMapValue) => {
  const radius = v.mapCircleRadius ?? MAP_CIRCLE.default;
  const c = circleCentreAround(lat, lng, radius);
  return { mapCircleLatitude: c.latitude, mapCircleLongitude: c.longitude, mapCircleRadius: radius };
};

/** The map's values as inputs: the switch, the coordinates, and the circle (required when the exact place is hidden). */
function MapEditorFields({
  value: v,
  onChange,
  clickSets,
  setClickSets,
  testId,
}: {
  value: TMapValue;
  onChange: (next: TMapValue) => void;
  clickSets: 'point' | 'circle';
  setClickSets: (s: 'point' | 'circle') => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const problems = mapValueProblems(v);
  const err = (k: keyof TMapValue) => (problems[k] ? t(problems[k]!, { min: MAP_CIRCLE.min, max: MAP_CIRCLE.max, step: MAP_CIRCLE.step }) : undefined);
  const num = (k: keyof TMapValue, label: string, extra: Record<string, unknown> = {}) => (
    <NumberInput
      label={label}
      value={(v[k] as number | null) ?? ''}
      onChange={(n) => onChange({ ...v, [k]: n === '' || n === '-' ? null : Number(n) })}
      decimalScale={6}
      error={err(k)}
      data-testid={`${testId}-${k}`}
      {...extra}
    />
  );
  const toggleDisplay = (display: boolean) => {
    // Hiding the exact place needs a circle: one around the point, default radius, to adjust.
    if (!display && !hasCircle(v) && hasPoint(v)) onChange({ ...v, displayCoordinates: false, ...circleAround(v.latitude!, v.longitude!, v) });
    else onChange({ ...v, displayCoordinates: display, mapCircleRadius: !display ? (v.mapCircleRadius ?? MAP_CIRCLE.default) : v.mapCircleRadius });
  };
  return (
    <Stack gap="xs">
      <Switch
        label={t('objectsearch.map.displayCoordinates')}
        description={t('objectsearch.map.displayCoordinatesHint')}
        checked={v.displayCoordinates}
        onChange={(e) => toggleDisplay(e.currentTarget.checked)}
        data-testid={`${testId}-displayCoordinates`}
      />
      <Group grow align="flex-start" gap="sm" wrap="wrap">
        {num('latitude', t('objectsearch.map.latitude'), { min: -90, max: 90 })}
        {num('longitude', t('objectsearch.map.longitude'), { min: -180, max: 180 })}
      </Group>
      {v.displayCoordinates && v.addressHidden && (
        <Alert color="orange" variant="light" data-testid={`${testId}-address-hidden`}>
          {t('objectsearch.map.addressHidden')}
        </Alert>
      )}
      {!pointShown(v) && (
        <>
          <Group grow align="flex-start" gap="sm" wrap="wrap">
            {num('mapCircleLatitude', t('objectsearch.map.circleLatitude'), { min: -90, max: 90, required: true })}
            {num('mapCircleLongitude', t('objectsearch.map.circleLongitude'), { min: -180, max: 180, required: true })}
            {num('mapCircleRadius', t('objectsearch.map.radius'), {
              min: MAP_CIRCLE.min,
              max: MAP_CIRCLE.max,
              step: MAP_CIRCLE.step,
              decimalScale: 0,
              allowDecimal: false,
              allowNegative: false,
              required: true,
              suffix: `\u00a0${t('common.unitMetre')}`,
              thousandSeparator: '\u00a0',
              description: t('objectsearch.map.radiusHint', { min: MAP_CIRCLE.min, max: MAP_CIRCLE.max, step: MAP_CIRCLE.step }),
            })}
          </Group>
          {hasPoint(v) && hasCircle(v) && v.mapCircleRadius != null &&
            !circleHidesPoint({ latitude: v.latitude!, longitude: v.longitude! }, { latitude: v.mapCircleLatitude!, longitude: v.mapCircleLongitude!, radius: v.mapCircleRadius }) && (
              <Text size="sm" c="orange.9" role="status" data-testid={`${testId}-circle-on-point`}>
                {t('objectsearch.map.circleOnPoint')}
              </Text>
            )}
          <Group gap="xs" wrap="wrap">
            <Text size="sm" id={`${testId}-click-label`}>
              {t('objectsearch.map.clickSets')}
            </Text>
            <SegmentedControl
              size="xs"
              value={clickSets}
              onChange={(s) => setClickSets(s as 'point' | 'circle')}
              aria-labelledby={`${testId}-click-label`}
              data={[
                { value: 'point', label: t('objectsearch.map.clickPoint') },
                { value: 'circle', label: t('objectsearch.map.clickCircle') },
              ]}
              data-testid={`${testId}-click-sets`}
            />
          </Group>
        </>
      )}
      {pointShown(v) && (
        <Text size="sm" c="dimmed">
          {t('objectsearch.map.clickHint')}
        </Text>
      )}
    </Stack>
  );
}

function MapUnavailable({ height, testId }: { height: number; testId: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="gray" icon={<IconMapOff size={18} />} mih={Math.min(height, 120)} data-testid={`${testId}-unavailable`}>
      {t('objectsearch.map.unavailable')}
    </Alert>
  );
}

/** The map's code could not be fetched (offline on a screen opened for the first time): the rest of the screen goes on. */
class MapBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
