import { SectionCard } from '../../../components/titled-card.tsx';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { showsPoint } from '@crm/contract/object-fields';
import { ObjectMap, type TMapValue } from './object-map.tsx';

/** The map fields of a record (group "map") as the map takes them. */
export const mapValueOf = (o: Record<string, unknown>): TMapValue => ({
  latitude: (o.latitude as number | null) ?? null,
  longitude: (o.longitude as number | null) ?? null,
  displayCoordinates: o.displayCoordinates === true,
  addressHidden: !showsPoint({ displayCoordinates: true, displayAddress: o.displayAddress, address: o.address }),
  mapZoom: (o.mapZoom as number | null) ?? null,
  mapCircleLatitude: (o.mapCircleLatitude as number | null) ?? null,
  mapCircleLongitude: (o.mapCircleLongitude as number | null) ?? null,
  mapCircleRadius: (o.mapCircleRadius as number | null) ?? null,
});

/** The view's map card: the exact point, or the approximate circle when the exact place is not shown. */
export function ObjectMapCard({ object }: { object: Record<string, unknown> }) {
  const { t } = useTranslation();
  return (
    <SectionCard title={t('objects.section.map')} testId="object-map-card">
      <ObjectMap mode="view" value={mapValueOf(object)} label={t('objects.section.map')} testId="object-map" />
    </SectionCard>
  );
}
