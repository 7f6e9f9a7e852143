import { Card, Group, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDistance } from '../../../lib/format.ts';
import { IconMap } from '../icons.ts';

/**
 * MAP SLOT. The Leaflet map (components/object-map.tsx) takes this card's place in the view, and
 * the location picker (components/location-picker.tsx) in the edit form's map section. Until then
 * the card says where the object is on the map, in words.
 */
export function ObjectMapSlot({ object }: { object: Record<string, unknown> }) {
  const { t } = useTranslation();
  const lat = object.latitude as number | null;
  const lng = object.longitude as number | null;
  const radius = object.mapCircleRadius as number | null;
  const exact = object.displayCoordinates === true;
  return (
    <Card withBorder padding="sm" data-testid="object-map-slot">
      <Title order={3} size="h5" mb="xs">
        {t('objects.section.map')}
      </Title>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <IconMap size={20} color="var(--mantine-color-gray-6)" aria-hidden />
        <Text size="sm" c={lat == null ? 'dimmed' : undefined}>
          {lat == null || lng == null
            ? t('objects.map.notSet')
            : exact || !radius
              ? t('objects.map.exact', { lat: lat.toFixed(5), lon: lng.toFixed(5) })
              : t('objects.map.approximate', { lat: lat.toFixed(5), lon: lng.toFixed(5), radius: formatDistance(radius) })}
        </Text>
      </Group>
    </Card>
  );
}
