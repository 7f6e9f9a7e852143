import { Anchor, Button, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TObjectRow } from '@crm/contract';
import { OBJECT_PAGE_SIZES } from '@crm/contract/object-fields';
import { DataTable, ListHeader, type DataTableColumn } from '../../../components/data-table.tsx';
import { IconPlus, IconSearch } from '../../../components/icons.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useCookieState, type ListState } from '../../../lib/list-state.ts';
import { OBJECT_LIST_COOKIES, OBJECT_LIST_DEFAULTS, objectListQuery, objectListState } from '../api/objects.ts';

const wideScreens = '(min-width: 48em)';

/** The list's paging and sort, each in its cookie (OBJECT_LIST_COOKIES). */
function useObjectListState(): [ListState, (next: ListState | ((prev: ListState) => ListState)) => void] {
  const [perPage, setPerPage] = useCookieState<number>(OBJECT_LIST_COOKIES.perPage, OBJECT_LIST_DEFAULTS.perPage);
  const [currentPage, setCurrentPage] = useCookieState<number>(OBJECT_LIST_COOKIES.currentPage, OBJECT_LIST_DEFAULTS.currentPage);
  const [sort, setSort] = useCookieState<{ sortBy: string; sortDir: 'asc' | 'desc' }>(OBJECT_LIST_COOKIES.sort, OBJECT_LIST_DEFAULTS.sort);
  const state = useMemo<ListState>(() => objectListState(perPage, currentPage, sort), [perPage, currentPage, sort]);
  const set = useCallback(
    (next: ListState | ((prev: ListState) => ListState)) => {
      const v = typeof next === 'function' ? next(state) : next;
      if (v.perPage !== state.perPage) setPerPage(v.perPage);
      if (v.currentPage !== state.currentPage) setCurrentPage(v.currentPage);
      if (v.sortBy !== state.sortBy || v.sortDir !== state.sortDir) setSort({ sortBy: v.sortBy, sortDir: v.sortDir });
    },
    [state, setPerPage, setCurrentPage, setSort],
  );
  return [state, set];
}

/** /Objects: every property, newest first, paged and sortable by each column. */
export function ObjectsPage() {
  const { t } = useTranslation();
  const list = useObjectListState();
  const q = useQuery(objectListQuery(list[0]));

  const columns: DataTableColumn<TObjectRow>[] = [
    // On a phone the reference number, type, location and owner stay; the stamps give way.
    { accessor: 'createdOn', title: t('objects.col.createdOn'), sortable: true, noWrap: true, visibleMediaQuery: wideScreens, render: (r) => formatDateTime(r.createdOn) },
    { accessor: 'createdBy', title: t('objects.col.createdBy'), sortable: true, visibleMediaQuery: wideScreens },
    {
      accessor: 'referenceNumber',
      title: t('objects.col.referenceNumber'),
      sortable: true,
      noWrap: true,
      card: 'title',
      render: (r) => (
        <Anchor component={Link} to={`/Objects/View/${r.id}`} size="sm" fw={600} data-testid="object-link">
          #{r.referenceNumber}
        </Anchor>
      ),
    },
    { accessor: 'type', title: t('objects.col.type'), sortable: true, card: 'title' },
    { accessor: 'location', title: t('objects.col.location'), sortable: true },
    {
      accessor: 'owner',
      title: t('objects.col.owner'),
      sortable: true,
      render: (r) =>
        r.ownerId != null ? (
          <Anchor component={Link} to={`/Accounts/View/${r.ownerId}`} size="sm" data-testid="owner-link">
            {r.owner || `#${r.ownerId}`}
          </Anchor>
        ) : null,
    },
    { accessor: 'modifiedOn', title: t('objects.col.modifiedOn'), sortable: true, noWrap: true, visibleMediaQuery: wideScreens, render: (r) => formatDateTime(r.modifiedOn) },
    { accessor: 'modifiedBy', title: t('objects.col.modifiedBy'), sortable: true, visibleMediaQuery: wideScreens },
  ];

  const add = (
    <Button component={Link} to="/Objects/Add" leftSection={<IconPlus size={16} />} data-testid="objects-add">
      {t('objects.list.add')}
    </Button>
  );
  return (
    <Stack gap="md" data-testid="objects-page">
      <ListHeader title={t('title.objects')} count={q.data?.totalRows} testId="objects">
        <Button component={Link} to="/Objects/Search" variant="default" leftSection={<IconSearch size={16} />} data-testid="objects-search">
          {t('objects.list.search')}
        </Button>
        {add}
      </ListHeader>
      <DataTable
        testId="objects-table"
        list={list}
        records={q.data?.items}
        totalRows={q.data?.totalRows}
        fetching={q.isFetching}
        columns={columns}
        pageSizes={OBJECT_PAGE_SIZES}
        empty={{ text: t('objects.list.empty'), action: add }}
      />
    </Stack>
  );
}
