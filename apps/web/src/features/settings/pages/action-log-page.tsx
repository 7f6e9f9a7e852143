import { Anchor, Grid, NumberInput, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TActionLogRow } from '@crm/contract';
import { SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';
import { ACTION_LOG_PAGE_SIZE } from '@crm/contract/office-constants';
import { DataTable, ListHeader, type DataTableColumn } from '../../../components/data-table.tsx';
import { FilterCard } from '../../../components/filter-card.tsx';
import { SearchPicker } from '../../../components/search-picker.tsx';
import { api } from '../../../lib/api.ts';
import { logDataRows, logDataText, logRefs, type LogRefs } from '../../../lib/log-data.ts';
import { logActionText, logEntityText, logMessageText, logRecordPath } from '../../../lib/log-texts.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { formatTypedNumber } from '../../../lib/typed-number.ts';
import { useCookieState, useListState } from '../../../lib/list-state.ts';
import { ClearFiltersButton } from '../../../components/clear-filters.tsx';
import { DateField } from '../../../components/fields/date-field.tsx';
import { actionLogQuery, NO_ACTION_LOG_FILTER, type TActionLogFilter } from '../api/settings.ts';

/** The largest record number (a PostgreSQL integer). */
const MAX_RECORD_ID = 2147483647;

/** The page size of the action log (spec 001, 9): 20; a longer page for reading through a day. */
const PAGE_SIZES = [ACTION_LOG_PAGE_SIZE, 100] as const;

/** Where a row's record is opened, by its kind. */
const searchEmployees = async (searchStr: string, signal: AbortSignal) =>
  (await api<{ items: { id: number; description: string }[] }>('/api/account/search', { query: { searchStr, filter: 1 }, signal })).items.map((i) => ({ id: i.id, text: i.description }));

/** A change's data as a two-column table (field, value) in the reader's words; anything else as text. */
export function DataCell({ entity, data, refs }: { entity: string; data: unknown; refs?: LogRefs }) {
  const { t } = useTranslation();
  if (data == null) return null;
  const rows = logDataRows(t, entity, data, refs);
  if (typeof data !== 'object' || Array.isArray(data)) return <Text size="xs">{logDataText(t, data)}</Text>;
  if (!rows.length) return null;
  return (
    // Fixed layout: the label takes 40 %, the value the rest, and a word breaks only when it is wider than its cell.
    <Table withRowBorders={false} verticalSpacing={0} horizontalSpacing={4} fz="xs" layout="fixed" className="log-data" data-testid="action-log-data">
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.key}>
            {/* The label may wrap (at most 40 % of the width): on a phone a long label left its value a letter wide. */}
            <Table.Td c="dimmed" title={r.key === r.label ? undefined : r.key} style={{ verticalAlign: 'top', width: '40%', overflowWrap: 'break-word' }}>
              {r.label}
            </Table.Td>
            {/* Words stay whole (a long code or address may still break): "αρραβώνας" lost its last letter to the next line. */}
            <Table.Td style={{ overflowWrap: 'break-word', wordBreak: 'normal', whiteSpace: 'pre-line' }}>
              {r.parts
                ? // The records it names (a deal's parties, a lead's client, a property…): each links to
                  // the record (one deleted since is its number).
                  r.parts.map((p, i) => (
                    <span key={i}>
                      {i > 0 && (p.sep ?? ', ')}
                      {p.role && `${p.role} `}
                      {p.to ? (
                        <Anchor component={Link} to={p.to} fz="xs" data-testid={p.role ? 'action-log-party' : 'action-log-ref'}>
                          {p.text}
                        </Anchor>
                      ) : (
                        p.text
                      )}
                      {p.note}
                    </span>
                  ))
                : r.value}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** /ActionLog: who changed what, newest first, with its filters kept in a cookie. */
export function ActionLogPage() {
  const { t } = useTranslation();
  const list = useListState('ActionLog', { perPage: ACTION_LOG_PAGE_SIZE, sortBy: 'date', sortDir: 'desc' });
  const [filter, setFilter] = useCookieState<TActionLogFilter>('ActionLog.filter', NO_ACTION_LOG_FILTER);
  const q = useQuery(actionLogQuery(filter, { perPage: list[0].perPage, currentPage: list[0].currentPage }));
  const change = (patch: Partial<TActionLogFilter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    list[1]((s) => ({ ...s, currentPage: 1 }));
  };
  // "By whom" either picks an employee, or is a part of a name or e-mail typed (anyone who signed
  // in, a former employee too): typing clears the pick, a pick clears what was typed.
  const [typed, setTyped] = useState(filter.actionByText ?? '');
  // A record number past any id is said at the field and never kept as the filter (it was kept in
  // the cookie and refused by the server on every later visit).
  const [idTooBig, setIdTooBig] = useState(false);
  const sendTyped = useDebouncedCallback((text: string) => change({ actionByText: text.trim() || null }), SEARCH_DEBOUNCE_MS);
  const clear = () => {
    sendTyped.cancel();
    setTyped('');
    change(NO_ACTION_LOG_FILTER);
  };
  const filtered = JSON.stringify(filter) !== JSON.stringify(NO_ACTION_LOG_FILTER);
  const entities = [
    { value: '0', label: t('actionLog.ui.entity.any') },
    { value: '1', label: t('actionLog.ui.entity.account') },
    { value: '2', label: t('actionLog.ui.entity.object') },
  ];

  const columns: DataTableColumn<TActionLogRow>[] = [
    { accessor: 'date', title: t('actionLog.ui.col.date'), noWrap: true, render: (r) => formatDateTime(r.date) },
    // The server's own work (the first administrator, publishing, reminders) is logged as "system".
    { accessor: 'actionBy', title: t('actionLog.ui.col.actionBy'), render: (r) => (r.actionBy === 'system' ? t('actionLog.ui.system') : r.actionBy === 'website' ? t('actionLog.ui.website') : r.actionBy) },
    { accessor: 'action', title: t('actionLog.ui.col.action'), render: (r) => logActionText(t, r.action) },
    { accessor: 'entity', title: t('actionLog.ui.col.entity'), render: (r) => logEntityText(t, r.entity) },
    {
      accessor: 'actionOver',
      title: t('actionLog.ui.col.actionOver'),
      render: (r) => {
        const to = logRecordPath(r.action, r.entity, r.entityId);
        return to ? (
          <Anchor component={Link} to={to} data-testid="action-log-over">
            {r.actionOver}
          </Anchor>
        ) : (
          r.actionOver
        );
      },
    },
    {
      accessor: 'message',
      title: t('actionLog.ui.col.message'),
      render: (r) => {
        const message = logMessageText(t, r.entity, r.message, r.data);
        return message ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {message}
          </Text>
        ) : null;
      },
    },
    { accessor: 'data', title: t('actionLog.ui.col.data'), width: 320, render: (r) => <DataCell entity={r.entity} data={r.data} refs={logRefs(t, r)} /> },
  ];
  return (
    <Stack gap="md">
      <ListHeader title={t('title.actionLog')} count={q.data?.totalRows} testId="action-log">
        {q.data?.totalCapped && (
          <Text size="sm" c="dimmed" data-testid="action-log-capped">
            {t('actionLog.ui.moreThan', { n: q.data.totalRows })}
          </Text>
        )}
      </ListHeader>
      <FilterCard active={filtered} testId="action-log-filter">
        <Grid gap="sm" align="flex-end">
          <Grid.Col span={{ base: 12, sm: 6, lg: 'auto' }}>
            <SearchPicker
              label={t('actionLog.ui.filter.actionBy')}
              value={filter.actionBy ? { id: filter.actionBy, text: filter.actionByName } : null}
              onChange={(v) => {
                if (v) {
                  sendTyped.cancel();
                  setTyped('');
                }
                change({ actionBy: v?.id ?? null, actionByName: v?.text ?? '', ...(v ? { actionByText: null } : {}) });
              }}
              search={searchEmployees}
              queryKey="employee"
              testId="action-log-filter-by"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 'auto' }}>
            <TextInput
              label={t('actionLog.ui.filter.actionByText')}
              value={typed}
              maxLength={200}
              onChange={(e) => {
                const text = e.currentTarget.value;
                setTyped(text);
                if (filter.actionBy) change({ actionBy: null, actionByName: '' });
                sendTyped(text);
              }}
              data-testid="action-log-filter-by-text"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 3, lg: 'auto' }}>
            <Select
              label={t('actionLog.ui.filter.entity')}
              data={entities}
              value={String(filter.entity)}
              allowDeselect={false}
              onChange={(v) => change({ entity: Number(v ?? 0) as 0 | 1 | 2 })}
              comboboxProps={{ withinPortal: true }}
              data-testid="action-log-filter-entity"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 3, lg: 'auto' }}>
            <NumberInput
              label={t('actionLog.ui.filter.entityId')}
              value={filter.entityId ?? ''}
              min={1}
              allowDecimal={false}
              allowNegative={false}
              hideControls
              error={idTooBig ? t('validation.tooBig', { max: formatTypedNumber(MAX_RECORD_ID) }) : undefined}
              onChange={(v) => {
                const tooBig = typeof v === 'number' && v > MAX_RECORD_ID;
                setIdTooBig(tooBig);
                if (!tooBig) change({ entityId: typeof v === 'number' && v > 0 ? v : null });
              }}
              data-testid="action-log-filter-id"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 3, lg: 'auto' }}>
            <DateField label={t('actionLog.ui.filter.from')} value={filter.startDate ?? null} onChange={(v) => change({ startDate: v })} data-testid="action-log-filter-from" />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 3, lg: 'auto' }}>
            <DateField label={t('actionLog.ui.filter.till')} value={filter.endDate ?? null} onChange={(v) => change({ endDate: v })} data-testid="action-log-filter-till" />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 'content' }}>
            <ClearFiltersButton fullWidth disabled={!filtered && !typed} onClear={clear} />
          </Grid.Col>
        </Grid>
      </FilterCard>
      <DataTable
        testId="action-log-table"
        list={list}
        records={q.data?.items}
        totalRows={q.data?.totalRows}
        fetching={q.isFetching}
        columns={columns}
        pageSizes={PAGE_SIZES}
        empty={
          filtered
            ? { text: t('actionLog.ui.noMatch'), action: <ClearFiltersButton variant="light" onClear={clear} /> }
            : { text: t('actionLog.ui.empty') }
        }
      />
    </Stack>
  );
}
