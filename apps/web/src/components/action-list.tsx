import { Badge, Button, Card, Collapse, Group, Paper, Select, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dateInputFormat, formatDateTime } from '../lib/format.ts';
import { isPast } from '../lib/agency-clock.ts';
import { pickerLocale } from '../lib/i18n.ts';
import { markAgencyToday } from './fields/agency-today.ts';
import { useCookieState } from '../lib/list-state.ts';
import { IconFilter } from './icons.ts';
import { activityKeys, searchActions, type TPickItem } from './activities/api.ts';
import { SearchPicker } from './activities/search-picker.tsx';
import { PagerFooter, RecordLinks, StateIcon, stateOf, useBackToLastPage } from './activities/shared.tsx';
import './table.css';

/** Page sizes of the action list (spec: 5, 20, 100; default 20). */
const PAGE_SIZES = [5, 20, 100] as const;

type ActionFilters = {
  /** 0 creation, 1 completion, 2 plan */
  dateFilterType: 0 | 1 | 2;
  done: 'all' | 'todo' | 'completed';
  employee: TPickItem | null;
  /** 0 created by, 1 assigned to */
  employeeFilterType: 0 | 1;
  startDate: string | null;
  endDate: string | null;
  perPage: number;
  currentPage: number;
};

const DEFAULTS: ActionFilters = { dateFilterType: 0, done: 'all', employee: null, employeeFilterType: 1, startDate: null, endDate: null, perPage: 20, currentPage: 1 };
/** The home page's "my open actions": to-dos, soonest planned first. */
const MINE_DEFAULTS: ActionFilters = { ...DEFAULTS, dateFilterType: 2, done: 'todo' };

const isFiltered = (f: ActionFilters, d: ActionFilters) =>
  f.dateFilterType !== d.dateFilterType || f.done !== d.done || !!f.employee || f.employeeFilterType !== d.employeeFilterType || !!f.startDate || !!f.endDate;

/** A to-do whose time has passed is marked; one still ahead is not (it is not late yet). */
const OVERDUE_STYLE = { backgroundColor: 'var(--mantine-color-red-0)' };

/**
 * The action list: activities that are actions (to do or complete), filtered by a date kind and
 * range, state and a person (who created it, or who it is assigned to). Filters, page size and
 * page live in a cookie. With `mine`, the caller's own actions (assigned to them, or created by
 * them for nobody in particular) — the home page's card.
 */
export function ActionList({ mine = false }: { mine?: boolean }) {
  const { t } = useTranslation();
  const defaults = mine ? MINE_DEFAULTS : DEFAULTS;
  const [f, setF] = useCookieState<ActionFilters>(mine ? 'MyActions' : 'ActionList', defaults);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtered = isFiltered(f, defaults);
  const perPage = (PAGE_SIZES as readonly number[]).includes(f.perPage) ? f.perPage : 20;
  const change = (patch: Partial<ActionFilters>) => setF((prev) => ({ ...prev, ...patch, currentPage: 1 }));
  const toPage = useCallback((currentPage: number) => setF((prev) => ({ ...prev, currentPage })), [setF]);

  const body = {
    dateFilterType: f.dateFilterType,
    done: f.done,
    employee: mine ? null : (f.employee?.id ?? null),
    employeeFilterType: f.employeeFilterType,
    employeeText: mine ? null : (f.employee?.description ?? null),
    startDate: f.startDate,
    endDate: f.endDate,
    mine,
    perPage,
    currentPage: f.currentPage,
  };
  const q = useQuery({
    queryKey: [...activityKeys.actions, body],
    queryFn: ({ signal }) => searchActions(body, signal),
    placeholderData: keepPreviousData,
  });
  const items = q.data?.items ?? [];
  const total = q.data?.totalRows ?? 0;
  useBackToLastPage(f.currentPage, perPage, q.isPlaceholderData ? undefined : q.data?.totalRows, toPage);
  const testId = mine ? 'my-actions' : 'action-list';

  return (
    <Card withBorder data-testid={testId}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Group gap="xs">
            <Title order={3} size="h4">{t(mine ? 'activities.actions.mine' : 'activities.actions.title')}</Title>
            <Badge variant="light" size="lg" color={mine && total ? 'red' : undefined} data-testid={`${testId}-count`}>
              {total}
            </Badge>
          </Group>
          <Button
            variant={filtered ? 'filled' : 'default'}
            color={filtered ? 'green' : undefined}
            leftSection={<IconFilter size={16} />}
            onClick={() => setFiltersOpen((o) => !o)}
            aria-expanded={filtersOpen}
            data-testid={`${testId}-filter-toggle`}
            data-active={filtered}
          >
            {t('activities.filters')}
          </Button>
        </Group>

        <Collapse expanded={filtersOpen}>
          {/* The filters (with their date picker) are rendered when opened. */}
          {filtersOpen && (
            <Paper withBorder p="sm">
              <Group align="flex-end" gap="sm" wrap="wrap">
                <Select
                  label={t('activities.actions.done')}
                  w={170}
                  allowDeselect={false}
                  value={f.done}
                  onChange={(v) => change({ done: (v ?? 'all') as ActionFilters['done'] })}
                  data={(['all', 'todo', 'completed'] as const).map((v) => ({ value: v, label: t(`activities.doneFilter.${v}`) }))}
                  data-testid={`${testId}-done`}
                />
                <Select
                  label={t('activities.actions.dateType')}
                  w={190}
                  allowDeselect={false}
                  value={String(f.dateFilterType)}
                  onChange={(v) => change({ dateFilterType: Number(v ?? 0) as 0 | 1 | 2 })}
                  data={[0, 1, 2].map((v) => ({ value: String(v), label: t(`activities.dateFilter.${v}`) }))}
                  data-testid={`${testId}-date-type`}
                />
                <DatePickerInput
                  {...pickerLocale()}
                  type="range"
                  label={`${t('activities.actions.from')} – ${t('activities.actions.to')}`}
                  w={260}
                  clearable
                  allowSingleDateInRange
                  getDayProps={markAgencyToday}
                  valueFormat={dateInputFormat()}
                  value={[f.startDate, f.endDate]}
                  onChange={([s, e]) => change({ startDate: s ? s.slice(0, 10) : null, endDate: e ? e.slice(0, 10) : null })}
                  data-testid={`${testId}-dates`}
                />
                {!mine && (
                  <>
                    <Select
                      label={t('activities.actions.employeeType')}
                      w={190}
                      allowDeselect={false}
                      value={String(f.employeeFilterType)}
                      onChange={(v) => change({ employeeFilterType: Number(v ?? 1) as 0 | 1 })}
                      data={[0, 1].map((v) => ({ value: String(v), label: t(`activities.employeeFilter.${v}`) }))}
                      data-testid={`${testId}-employee-type`}
                    />
                    <div style={{ width: 260 }}>
                      <SearchPicker
                        source={{ kind: 'accounts', filter: 1 }}
                        label={t('activities.actions.employee')}
                        placeholder={t('activities.assigneePlaceholder')}
                        value={f.employee}
                        onPick={(p) => change({ employee: p })}
                        testId={`${testId}-employee`}
                      />
                    </div>
                  </>
                )}
                {filtered && (
                  <Button variant="subtle" onClick={() => setF({ ...defaults, perPage })}>
                    {t('activities.filter.clear')}
                  </Button>
                )}
              </Group>
            </Paper>
          )}
        </Collapse>

        {items.length === 0 ? (
          <Text c="dimmed" size="sm" data-testid={`${testId}-empty`}>
            {q.isPending ? t('common.loading') : mine && !filtered ? t('activities.actions.mineEmpty') : t('activities.actions.empty')}
          </Text>
        ) : (
          <div className="crm-list">
            <div className="crm-table-x">
              <table className="crm-table crm-table-cards" style={{ minWidth: 800 }} data-testid={`${testId}-table`}>
                <thead>
                  <tr>
                    <th style={{ width: 32 }}>
                      <VisuallyHidden>{t('activities.col.state')}</VisuallyHidden>
                    </th>
                    <th>{t('activities.col.plannedOn')}</th>
                    <th>{t('activities.col.description')}</th>
                    <th>{t('activities.actions.record')}</th>
                    <th>{t('activities.col.assigned')}</th>
                    <th>{t('activities.col.createdBy')}</th>
                    <th>{t('activities.col.createdOn')}</th>
                    <th>{t('activities.col.completedOn')}</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((a) => {
                    const state = stateOf(a.done);
                    const overdue = state === 'todo' && isPast(a.date);
                    // On a phone each row is a card (table.css): the date heads it, the state sits
                    // at its corner, the other cells are lines labelled with their column.
                    const cell = (label: string, empty: boolean) => ({ 'data-label': label, ...(empty ? { 'data-empty': '' } : {}) });
                    return (
                      <tr key={a.id} style={overdue ? OVERDUE_STYLE : undefined} data-testid={`${testId}-row`} data-state={state} data-overdue={overdue || undefined}>
                        <td data-card="action">
                          <StateIcon done={a.done} />
                        </td>
                        <td style={{ whiteSpace: 'nowrap' }} data-card="title">
                          {formatDateTime(a.date)}
                        </td>
                        <td {...cell(t('activities.col.description'), !a.description)}>
                          <div className="pre-line line-clamp">{a.description}</div>
                        </td>
                        <td {...cell(t('activities.actions.record'), !a.links?.length)}>
                          <RecordLinks links={a.links} />
                        </td>
                        <td {...cell(t('activities.col.assigned'), !a.assignedTo)}>{a.assignedTo?.description}</td>
                        <td {...cell(t('activities.col.createdBy'), !a.createdBy)}>{a.createdBy}</td>
                        <td style={{ whiteSpace: 'nowrap' }} {...cell(t('activities.col.createdOn'), !a.createdOn)}>
                          {formatDateTime(a.createdOn)}
                        </td>
                        <td style={{ whiteSpace: 'nowrap' }} {...cell(t('activities.col.completedOn'), !a.doneDate)}>
                          {formatDateTime(a.doneDate)}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          </div>
        )}

        <PagerFooter
          total={total}
          perPage={perPage}
          page={f.currentPage}
          pageSizes={PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) }))}
          onPerPage={(n) => setF((prev) => ({ ...prev, perPage: n, currentPage: 1 }))}
          onPage={(p) => setF((prev) => ({ ...prev, currentPage: p }))}
          testId={testId}
          totalText={t('activities.actions.total', { count: total })}
        />
      </Stack>
    </Card>
  );
}
