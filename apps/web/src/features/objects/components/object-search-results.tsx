import { Anchor, Image, List, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import type { TObjectSearchRow } from '@crm/contract';
import { OBJECT, href } from '@crm/contract/resources';
import type { DataTableColumn } from '../../../components/data-table.tsx';
import { AccountLink } from '../../../components/account-columns.tsx';
import { formatArea, formatMoney } from '../../../lib/format.ts';
import { objectThumbUrl, type TObjectSearchFilter } from '../api/object-search.ts';
import { ObjectMap, type TMapMarker } from './object-map.tsx';

type TFn = ReturnType<typeof useTranslation>['t'];

/** The prices of the services searched for (all the object offers when none is chosen). */
export function priceLines(r: TObjectSearchRow, f: TObjectSearchFilter, t: TFn): string[] {
  const any = !f.forSale && !f.forRent && !f.forShortRent;
  const out: string[] = [];
  if ((f.forSale || (any && r.forSale)) && r.salePrice != null) out.push(t('objectsearch.price.sale', { price: formatMoney(r.salePrice) }));
  if ((f.forRent || (any && r.forRent)) && r.rentPrice != null) out.push(t('objectsearch.price.rent', { price: formatMoney(r.rentPrice) }));
  if ((f.forShortRent || (any && r.forShortRent)) && r.shortRentPrice != null) out.push(t('objectsearch.price.shortRent', { price: formatMoney(r.shortRentPrice) }));
  return out;
}

export const ref = (r: { referenceNumber: string }) => `#${r.referenceNumber}`;

/** The search list's columns (the photo only when a result has one), then the further ones chosen. */
export function searchColumns(t: TFn, filter: TObjectSearchFilter, items: TObjectSearchRow[] | undefined, more: DataTableColumn<TObjectSearchRow>[]): DataTableColumn<TObjectSearchRow>[] {
  return [
    {
      accessor: 'referenceNumber',
      title: t('objectsearch.col.reference'),
      noWrap: true,
      card: 'title',
      render: (r) => (
        <Anchor component={Link} to={href(OBJECT.screens.view, { id: r.id })} fw={600} size="sm" data-testid="object-search-ref">
          {ref(r)}
        </Anchor>
      ),
    },
    // The photo column only when a result has a photo.
    ...(!items?.some((r) => r.imageId != null) ? [] : [{
      accessor: 'imageId',
      title: t('objectsearch.col.photo'),
      width: 92,
      render: (r) =>
        r.imageId != null ? (
          <Image src={objectThumbUrl(r.imageId)} alt={t('objectsearch.photoOf', { ref: r.referenceNumber })} w={76} h={56} radius="sm" fit="cover" loading="lazy" />
        ) : null,
    } satisfies DataTableColumn<TObjectSearchRow>]),
    {
      accessor: 'type',
      title: t('objectsearch.col.type'),
      card: 'title',
      render: (r) => (
        <Stack gap={0}>
          <Text size="sm">{r.type}</Text>
          {r.title && (
            <Text size="xs" c="dimmed" lineClamp={2}>
              {r.title}
            </Text>
          )}
        </Stack>
      ),
    },
    { accessor: 'location', title: t('objectsearch.col.location') },
    { accessor: 'area', title: t('objectsearch.col.area'), noWrap: true, textAlign: 'right', render: (r) => formatArea(r.area) },
    {
      accessor: 'prices',
      title: t('objectsearch.col.prices'),
      noWrap: true,
      render: (r) => (
        <Stack gap={0}>
          {priceLines(r, filter, t).map((l) => (
            <Text key={l} size="sm">
              {l}
            </Text>
          ))}
        </Stack>
      ),
    },
    { accessor: 'owner', title: t('objectsearch.col.owner'), render: (r) => (r.ownerId != null ? <AccountLink id={r.ownerId} name={r.owner ?? ''} /> : null) },
    ...more,
  ];
}

/** The search's results on the map: how many, the markers, and the list of those placed. */
export function MapResults({ data, fetching, filter, filtered }: { data: { items: TObjectSearchRow[]; totalRows: number } | undefined; fetching: boolean; filter: TObjectSearchFilter; filtered: boolean }) {
  const { t } = useTranslation();
  const items = data?.items;
  const placed = useMemo(() => (items ?? []).filter((r) => r.latitude != null && r.longitude != null), [items]);
  const markers: TMapMarker[] = useMemo(
    () => placed.map((r) => ({ id: r.id, latitude: r.latitude!, longitude: r.longitude!, reference: ref(r), title: r.title ?? r.type, lines: [r.location, ...priceLines(r, filter, t)].filter(Boolean) })),
    [placed, filter, t],
  );

  return (
    <Stack gap="sm" data-testid="object-search-map-results" data-loading={fetching ? 'true' : 'false'}>
      {data && (
        <Text size="sm" c="dimmed" data-testid="object-search-map-count">
          {data.totalRows > data.items.length
            ? t('objectsearch.mapLimited', { max: data.items.length, total: data.totalRows })
            : t('objectsearch.mapCount', { count: data.totalRows })}
        </Text>
      )}
      <ObjectMap mode="markers" markers={markers} label={t('objectsearch.map.label')} testId="object-search-map" />
      {data && data.items.length === 0 && !fetching ? (
        <Paper withBorder p="md">
          <Text c="dimmed" ta="center" data-testid="object-search-map-empty">
            {t(filtered ? 'objectsearch.empty' : 'objects.list.empty')}
          </Text>
        </Paper>
      ) : (
        placed.length > 0 && (
          <Paper withBorder p="sm">
            <Text size="sm" fw={600} id="object-search-map-list-title">
              {t('objectsearch.mapList')}
            </Text>
            <ScrollArea.Autosize mah={260} type="auto" offsetScrollbars>
              <List size="sm" listStyleType="none" spacing={4} mt={4} aria-labelledby="object-search-map-list-title" data-testid="object-search-map-list">
                {placed.map((r) => (
                  <List.Item key={r.id}>
                    <Anchor component={Link} to={href(OBJECT.screens.view, { id: r.id })} fw={600} size="sm">
                      {ref(r)}
                    </Anchor>{' '}
                    <Text span size="sm">
                      {[r.title ?? r.type, r.location, ...priceLines(r, filter, t)].filter(Boolean).join(' · ')}
                    </Text>
                  </List.Item>
                ))}
              </List>
            </ScrollArea.Autosize>
          </Paper>
        )
      )}
    </Stack>
  );
}
