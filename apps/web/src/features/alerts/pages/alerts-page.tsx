import { Anchor, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { TAlertRow } from '@crm/contract';
import { DataTable, ListHeader, type DataTableColumn } from '../../../components/data-table.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useSavedFilter, type ListState } from '../../../lib/list-state.ts';
import { ALERTS_PAGING, alertListQuery } from '../api/alerts.ts';
import './alerts.css';

/** /Alerts: newest first, unread rows bold; a row opens the alert. */
export function AlertsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [paging, setPaging] = useSavedFilter(ALERTS_PAGING);
  const q = useQuery(alertListQuery(paging.perPage, paging.currentPage));
  const state: ListState = { ...paging, sortBy: '', sortDir: 'desc' };
  const list: [ListState, (next: ListState | ((prev: ListState) => ListState)) => void] = [
    state,
    (next) => {
      const s = typeof next === 'function' ? next(state) : next;
      setPaging({ perPage: s.perPage, currentPage: s.currentPage });
    },
  ];

  const columns: DataTableColumn<TAlertRow>[] = [
    {
      accessor: 'date',
      title: t('alerts.col.date'),
      noWrap: true,
      render: (a) => (
        <Anchor component={Link} to={`/Alerts/${a.id}`} size="sm" c="inherit" fw="inherit" onClick={(e) => e.stopPropagation()} data-testid="alert-link">
          {formatDateTime(a.date)}
        </Anchor>
      ),
    },
    { accessor: 'source', title: t('alerts.col.source'), noWrap: true },
    {
      accessor: 'content',
      title: t('alerts.col.content'),
      render: (a) => (
        // Two lines in the desktop table; the whole text on a phone's card (alerts.css), where reminders differ only at the end.
        <Text size="sm" fw="inherit" className="alert-row-content" data-testid="alert-row-content">
          {a.content}
        </Text>
      ),
    },
    { accessor: 'readedOn', title: t('alerts.col.readOn'), noWrap: true, render: (a) => (a.readedOn ? formatDateTime(a.readedOn) : t('alerts.unread')) },
    { accessor: 'readedBy', title: t('alerts.col.readBy'), visibleMediaQuery: '(min-width: 36em)' },
  ];

  return (
    <Stack gap="md">
      <ListHeader title={t('title.alerts')} count={q.data?.totalRows} testId="alerts" />
      {q.data && q.data.unreadCount > 0 && (
        <Text size="sm" c="dimmed" data-testid="alerts-unread">
          {t('alerts.unreadOfTotal', { count: q.data.unreadCount })}
        </Text>
      )}
      <DataTable
        testId="alerts-table"
        list={list}
        records={q.data?.items}
        totalRows={q.data?.totalRows}
        fetching={q.isFetching}
        columns={columns}
        rowClassName={(a) => (a.readedOn ? 'alert-read' : 'alert-unread')}
        onRowClick={(a) => navigate(`/Alerts/${a.id}`)}
        empty={{ text: t('alerts.empty') }}
      />
    </Stack>
  );
}
