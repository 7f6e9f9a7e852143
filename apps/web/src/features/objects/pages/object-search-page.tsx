import { Anchor, Button, Checkbox, Grid, Group, Image, List, Paper, ScrollArea, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TObjectSearchRow } from '@crm/contract';
import { DataTable, ListHeader, type DataTableColumn } from '../../../components/data-table.tsx';
import { FilterCard } from '../../../components/filter-card.tsx';
import { IconPlus, IconSearch } from '../../../components/icons.ts';
import { formatArea, formatMoney } from '../../../lib/format.ts';
import { useCookieState, type ListState } from '../../../lib/list-state.ts';
import { AccountLink } from '../../../components/account-columns.tsx';
import { AccountPicker } from '../../../components/account-picker.tsx';
import { DownloadButton } from '../../../components/download-button.tsx';
import { NO_OBJECT_SEARCH, downloadObjects, objectSearchQuery, objectThumbUrl, type TObjectSearchFilter } from '../api/object-search.ts';
import { LocationPicker } from '../components/location-picker.tsx';
import { ObjectMap, type TMapMarker } from '../components/object-map.tsx';
import { IconList, IconMap, IconRefresh } from '../components/search-icons.ts';
import { DecimalField } from '../../../components/fields/decimal-field.tsx';
import { focusInvalidEntry } from '../../../components/fields/invalid-entry.ts';
import { OBJECT, href } from '@crm/contract/resources';
import { ColumnChooser, useChosenColumns } from '../../../kit/column-chooser.tsx';
import { useObjectMoreColumns } from '../components/more-columns.tsx';

/** The filter's cookie (10 years), as the spec keeps the object search. */
export const OBJECT_SEARCH_COOKIE = 'ObjectSearch.filter';

type TFn = ReturnType<typeof useTranslation>['t'];

/** The prices of the services searched for (all the object offers when none is chosen). */
function priceLines(r: TObjectSearchRow, f: TObjectSearchFilter, t: TFn): string[] {
  const any = !f.forSale && !f.forRent && !f.forShortRent;
  const out: string[] = [];
  if ((f.forSale || (any && r.forSale)) && r.salePrice != null) out.push(t('objectsearch.price.sale', { price: formatMoney(r.salePrice) }));
  if ((f.forRent || (any && r.forRent)) && r.rentPrice != null) out.push(t('objectsearch.price.rent', { price: formatMoney(r.rentPrice) }));
  if ((f.forShortRent || (any && r.forShortRent)) && r.shortRentPrice != null) out.push(t('objectsearch.price.shortRent', { price: formatMoney(r.shortRentPrice) }));
  return out;
}

const SERVICES = ['forSale', 'forRent', 'forShortRent'] as const;
/** The bedrooms filter's choices: at least 1 to 5. */
const BEDROOMS = [1, 2, 3, 4, 5] as const;
const ref = (r: { referenceNumber: string }) => `#${r.referenceNumber}`;

export function ObjectSearchPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useCookieState<TObjectSearchFilter>(OBJECT_SEARCH_COOKIE, NO_OBJECT_SEARCH);
  // The form edits a draft; Search applies it (page 1) and remembers it.
  const [draft, setDraft] = useState<TObjectSearchFilter>(filter);
  const more = useObjectMoreColumns('object-search');
  const chosen = useChosenColumns('object-search');
  const q = useQuery(objectSearchQuery(filter, more.chosen));
  const set = (patch: Partial<TObjectSearchFilter>) => setDraft((d) => ({ ...d, ...patch }));

  const priceOrder = draft.priceMin != null && draft.priceMax != null && draft.priceMin > draft.priceMax;
  const areaOrder = draft.areaMin != null && draft.areaMax != null && draft.areaMin > draft.areaMax;
  const apply = (e?: FormEvent) => {
    e?.preventDefault();
    if (priceOrder || areaOrder) return;
    // A price or area typed as no whole number keeps its text and says why: no search around it.
    if (e && focusInvalidEntry(e.currentTarget as HTMLFormElement)) return;
    setFilter((f) => ({ ...draft, showOnMap: f.showOnMap, perPage: f.perPage, currentPage: 1 }));
  };
  const newSearch = () => {
    const next = { ...NO_OBJECT_SEARCH, showOnMap: filter.showOnMap, perPage: filter.perPage };
    setDraft(next);
    setFilter(next);
  };
  const setOutput = (onMap: boolean) => {
    set({ showOnMap: onMap });
    setFilter((f) => ({ ...f, showOnMap: onMap, currentPage: 1 }));
  };
  const filtered = JSON.stringify({ ...filter, showOnMap: false, perPage: 0, currentPage: 0 }) !== JSON.stringify({ ...NO_OBJECT_SEARCH, perPage: 0, currentPage: 0 });

  // The list's paging lives in the same cookie as the filter.
  const list: [ListState, (next: ListState | ((prev: ListState) => ListState)) => void] = [
    { perPage: filter.perPage, currentPage: filter.currentPage, sortBy: '', sortDir: 'asc' },
    (next) =>
      setFilter((f) => {
        const s = typeof next === 'function' ? next({ perPage: f.perPage, currentPage: f.currentPage, sortBy: '', sortDir: 'asc' }) : next;
        return { ...f, perPage: s.perPage, currentPage: s.currentPage };
      }),
  ];

  const items = q.data?.items;
  const columns: DataTableColumn<TObjectSearchRow>[] = [
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
    ...more.columns,
  ];

  const placed = useMemo(() => (items ?? []).filter((r) => r.latitude != null && r.longitude != null), [items]);
  const markers: TMapMarker[] = useMemo(
    () => placed.map((r) => ({ id: r.id, latitude: r.latitude!, longitude: r.longitude!, reference: ref(r), title: r.title ?? r.type, lines: [r.location, ...priceLines(r, filter, t)].filter(Boolean) })),
    [placed, filter, t],
  );

  const newSearchButton = (
    <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={newSearch} data-testid="object-search-new">
      {t('objectsearch.form.newSearch')}
    </Button>
  );
  // Nothing to search yet (no filter set, no property found): the way to the first property, not advice to widen a search.
  const addButton = (
    <Button component={Link} to="/Objects/Add" leftSection={<IconPlus size={16} />} data-testid="object-search-add">
      {t('objects.list.add')}
    </Button>
  );
  const money = { scale: 0, unit: '€' } as const;
  const area = { scale: 0, unit: t('common.areaUnit') };
  const num = (v: number | '') => (v === '' ? null : v);

  return (
    <Stack gap="md">
      <ListHeader title={t('title.objectSearch')} count={q.data?.totalRows} testId="object-search">
        {!filter.showOnMap && <ColumnChooser columns={columns} hidden={chosen.hidden} setHidden={chosen.setHidden} testId="object-search" more={more} />}
        <DownloadButton download={() => downloadObjects(filter)} label={t('objects.ui.download')} disabled={!q.data?.totalRows} testId="object-search-download" />
        {newSearchButton}
      </ListHeader>
      <FilterCard active={filtered} testId="object-search-filter">
        <form onSubmit={apply} aria-label={t('objectsearch.form.title')} data-testid="object-search-form">
          <Grid gap="sm" align="flex-start">
            <Grid.Col span={{ base: 12, md: 6, lg: 4 }}>
              <Checkbox.Group
                label={t('objectsearch.form.services')}
                value={SERVICES.filter((k) => draft[k])}
                onChange={(v) => set({ forSale: v.includes('forSale'), forRent: v.includes('forRent'), forShortRent: v.includes('forShortRent') })}
              >
                <Group gap="md" mt={8}>
                  {SERVICES.map((k) => (
                    <Checkbox key={k} value={k} label={t(`objectsearch.form.${k}`)} data-testid={`object-search-${k}`} />
                  ))}
                </Group>
              </Checkbox.Group>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6, lg: 4 }}>
              <LocationPicker
                label={t('objectsearch.form.location')}
                value={draft.locationId != null ? { id: draft.locationId, text: draft.locationText } : null}
                onChange={(v) => set({ locationId: v?.id ?? null, locationText: v?.text ?? '' })}
                testId="object-search-location"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6, lg: 4 }}>
              <AccountPicker
                key={draft.createdBy ?? 'none'}
                label={t('objectsearch.form.createdBy')}
                filter={1}
                value={draft.createdBy != null ? { id: draft.createdBy, text: draft.createdByText } : null}
                onChange={(v) => set({ createdBy: v?.id ?? null, createdByText: v?.text ?? '' })}
                testId="object-search-createdby"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, md: 3, lg: 2 }}>
              <DecimalField label={t('objectsearch.form.priceMin')} value={draft.priceMin ?? ''} onChange={(v) => set({ priceMin: num(v) })} {...money} data-testid="object-search-priceMin" />
            </Grid.Col>
            <Grid.Col span={{ base: 6, md: 3, lg: 2 }}>
              <DecimalField
                label={t('objectsearch.form.priceMax')}
                value={draft.priceMax ?? ''}
                onChange={(v) => set({ priceMax: num(v) })}
                error={priceOrder ? t('objectsearch.form.rangeOrder') : undefined}
                {...money}
                data-testid="object-search-priceMax"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, md: 3, lg: 2 }}>
              <DecimalField label={t('objectsearch.form.areaMin')} value={draft.areaMin ?? ''} onChange={(v) => set({ areaMin: num(v) })} {...area} data-testid="object-search-areaMin" />
            </Grid.Col>
            <Grid.Col span={{ base: 6, md: 3, lg: 2 }}>
              <DecimalField
                label={t('objectsearch.form.areaMax')}
                value={draft.areaMax ?? ''}
                onChange={(v) => set({ areaMax: num(v) })}
                error={areaOrder ? t('objectsearch.form.rangeOrder') : undefined}
                {...area}
                data-testid="object-search-areaMax"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, md: 3, lg: 2 }}>
              <Select
                label={t('objectsearch.form.bedrooms')}
                data={[{ value: '', label: t('objectsearch.form.bedroomsAny') }, ...BEDROOMS.map((n) => ({ value: String(n), label: `${n}+` }))]}
                value={draft.bedroomsMin == null ? '' : String(draft.bedroomsMin)}
                onChange={(v) => set({ bedroomsMin: v ? Number(v) : null })}
                allowDeselect={false}
                data-testid="object-search-bedrooms"
              />
            </Grid.Col>
          </Grid>
          <Group justify="flex-end" mt="md" gap="sm">
            <Button type="submit" leftSection={<IconSearch size={16} />} disabled={priceOrder || areaOrder} data-testid="object-search-submit">
              {t('objectsearch.form.search')}
            </Button>
          </Group>
        </form>
      </FilterCard>

      <Group gap="xs">
        <Text size="sm" id="object-search-output-label">
          {t('objectsearch.form.output')}
        </Text>
        <SegmentedControl
          value={filter.showOnMap ? 'map' : 'list'}
          onChange={(v) => setOutput(v === 'map')}
          aria-labelledby="object-search-output-label"
          data={[
            { value: 'list', label: <OutputLabel icon="list" text={t('objectsearch.form.asList')} /> },
            { value: 'map', label: <OutputLabel icon="map" text={t('objectsearch.form.onMap')} /> },
          ]}
          data-testid="object-search-output"
        />
      </Group>

      {!filter.showOnMap ? (
        <DataTable
          testId="object-search-table"
          list={list}
          records={items}
          totalRows={q.data?.totalRows}
          fetching={q.isFetching}
          columns={chosen.shown(columns)}
          empty={filtered ? { text: t('objectsearch.empty'), action: newSearchButton } : { text: t('objects.list.empty'), action: addButton }}
        />
      ) : (
        <Stack gap="sm" data-testid="object-search-map-results" data-loading={q.isFetching ? 'true' : 'false'}>
          {q.data && (
            <Text size="sm" c="dimmed" data-testid="object-search-map-count">
              {q.data.totalRows > q.data.items.length
                ? t('objectsearch.mapLimited', { max: q.data.items.length, total: q.data.totalRows })
                : t('objectsearch.mapCount', { count: q.data.totalRows })}
            </Text>
          )}
          <ObjectMap mode="markers" markers={markers} label={t('objectsearch.map.label')} testId="object-search-map" />
          {q.data && q.data.items.length === 0 && !q.isFetching ? (
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
      )}
    </Stack>
  );
}

function OutputLabel({ icon, text }: { icon: 'list' | 'map'; text: string }) {
  const I = icon === 'list' ? IconList : IconMap;
  return (
    <Group gap={6} wrap="nowrap" justify="center">
      <I size={16} aria-hidden="true" />
      <span>{text}</span>
    </Group>
  );
}
