import { Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import { DataTable, ListHeader } from '../../../components/data-table.tsx';
import { FilterCard } from '../../../components/filter-card.tsx';
import { IconPlus } from '../../../components/icons.ts';
import { useCookieState, type ListState } from '../../../lib/list-state.ts';
import { DownloadButton } from '../../../components/download-button.tsx';
import { NO_OBJECT_SEARCH, downloadObjects, objectSearchQuery, type TObjectSearchFilter } from '../api/object-search.ts';
import { IconList, IconMap, IconRefresh } from '../components/search-icons.ts';
import { focusInvalidEntry } from '../../../components/fields/invalid-entry.ts';
import { MapResults, searchColumns } from '../components/object-search-results.tsx';
import { ObjectSearchForm } from '../components/object-search-form.tsx';
import { ColumnChooser, useChosenColumns } from '../../../kit/column-chooser.tsx';
import { useObjectMoreColumns } from '../components/more-columns.tsx';

/** The filter's cookie (10 years), as the spec keeps the object search. */
export const OBJECT_SEARCH_COOKIE = 'ObjectSearch.filter';

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
  const columns = searchColumns(t, filter, items, more.columns);
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
  return (
    <Stack gap="md">
      <ListHeader title={t('title.objectSearch')} count={q.data?.totalRows} testId="object-search">
        {!filter.showOnMap && <ColumnChooser columns={columns} hidden={chosen.hidden} setHidden={chosen.setHidden} testId="object-search" more={more} />}
        <DownloadButton download={() => downloadObjects(filter)} label={t('objects.ui.download')} disabled={!q.data?.totalRows} testId="object-search-download" />
        {newSearchButton}
      </ListHeader>
      <FilterCard active={filtered} testId="object-search-filter">
        <ObjectSearchForm draft={draft} set={set} onSubmit={apply} priceOrder={priceOrder} areaOrder={areaOrder} />
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
        <MapResults data={q.data} fetching={q.isFetching} filter={filter} filtered={filtered} />
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
