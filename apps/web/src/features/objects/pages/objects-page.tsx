import { Anchor } from '@mantine/core';
import { useCallback, useMemo } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import { IconSearch } from '../../../components/icons.ts';
import { ListScreen } from '../../../kit/list-screen.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useCookieState, type ListState } from '../../../lib/list-state.ts';
import { OBJECT_LIST_COOKIES, OBJECT_LIST_DEFAULTS, OBJECTS, objectListState } from '../api/objects.ts';
import { ACCOUNT, OBJECT, href } from '@crm/contract/resources';

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
  return (
    <ListScreen
      {...OBJECTS}
      listState={list}
      views={[{ to: '/Objects/Search', icon: IconSearch, label: t('objects.list.search'), testId: 'objects-search' }]}
      columns={() => [
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
            <Anchor component={Link} to={href(OBJECT.screens.view, { id: r.id })} size="sm" fw={600} data-testid="object-link">
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
              <Anchor component={Link} to={href(ACCOUNT.screens.view, { id: r.ownerId })} size="sm" data-testid="owner-link">
                {r.owner || `#${r.ownerId}`}
              </Anchor>
            ) : null,
        },
        { accessor: 'modifiedOn', title: t('objects.col.modifiedOn'), sortable: true, noWrap: true, visibleMediaQuery: wideScreens, render: (r) => formatDateTime(r.modifiedOn) },
        { accessor: 'modifiedBy', title: t('objects.col.modifiedBy'), sortable: true, visibleMediaQuery: wideScreens },
      ]}
    />
  );
}
