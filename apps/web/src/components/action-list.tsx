import { Select, VisuallyHidden } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { dateInputFormat, formatDateTime } from '../lib/format.ts';
import { isPast } from '../lib/agency-clock.ts';
import { pickerLocale } from '../lib/i18n.ts';
import { markAgencyToday } from './fields/agency-today.ts';
import { useCookieState } from '../lib/list-state.ts';
import type { TActivity } from '@crm/contract';
import { FilteredListCard } from './filtered-list-card.tsx';
import { activityKeys, searchActions, type TPickItem } from './activities/api.ts';
import { SearchPicker } from './activities/search-picker.tsx';
import { RecordLinks, StateIcon, stateOf, useBackToLastPage } from './activities/shared.tsx';
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
  const filtered = isFiltered(f, defaults);
  const perPage = (PAGE_SIZES as readonly number[]).includes(f.perPage) ? f.perPage : 20;
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
    <FilteredListCard
      cardTestId={testId}
      testId={testId}
      title={t(mine ? 'activities.actions.mine' : 'activities.actions.title')}
      total={total}
      countColor={mine && total ? 'red' : undefined}
      filtered={filtered}
      onClear={() => setF({ ...defaults, perPage })}
      filters={() => <ActionFiltersInputs f={f} change={(patch) => setF((prev) => ({ ...prev, ...patch, currentPage: 1 }))} mine={mine} testId={testId} />}
      emptyText={items.length > 0 ? null : q.isPending ? t('common.loading') : mine && !filtered ? t('activities.actions.mineEmpty') : t('activities.actions.empty')}
      pager={{
        perPage,
        page: f.currentPage,
        pageSizes: PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) })),
        onPerPage: (n) => setF((prev) => ({ ...prev, perPage: n, currentPage: 1 })),
        onPage: toPage,
        totalText: t('activities.actions.total', { count: total }),
      }}
    >
      <div className="crm-list">
        <div className="crm-table-x">
          <table className="crm-table crm-table-cards" style={{ minWidth: 800 }} data-testid={`${testId}-table`}>
            <thead>
              <tr>
                <th style={{ width: 32 }}><VisuallyHidden>{t('activities.col.state')}</VisuallyHidden></th>
                {(['activities.col.plannedOn', 'activities.col.description', 'activities.actions.record', 'activities.col.assigned', 'activities.col.createdBy', 'activities.col.createdOn', 'activities.col.completedOn'] as const).map((k) => (
                  <th key={k}>{t(k)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {items.map((a) => (
                <ActionRow key={a.id} a={a} testId={testId} />
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </FilteredListCard>
  );
}

/** The filters' inputs (the date picker is rendered when the filters are opened). */
function ActionFiltersInputs({ f, change, mine, testId }: { f: ActionFilters; change: (patch: Partial<ActionFilters>) => void; mine: boolean; testId: string }) {
  const { t } = useTranslation();
  return (
    <>
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
    </>
  );
}

/**
 * One action. On a phone each row is a card (table.css): the date heads it, the state sits at its
 * corner, the other cells are lines labelled with their column.
 */
function ActionRow({ a, testId }: { a: TActivity; testId: string }) {
  const { t } = useTranslation();
  const state = stateOf(a.done);
  const overdue = state === 'todo' && isPast(a.date);
  const cell = (label: string, empty: boolean) => ({ 'data-label': label, ...(empty ? { 'data-empty': '' } : {}) });
  return (
    <tr style={overdue ? OVERDUE_STYLE : undefined} data-testid={`${testId}-row`} data-state={state} data-overdue={overdue || undefined}>
      <td data-card="action"><StateIcon done={a.done} /></td>
      <td style={{ whiteSpace: 'nowrap' }} data-card="title">{formatDateTime(a.date)}</td>
      <td {...cell(t('activities.col.description'), !a.description)}><div className="pre-line line-clamp">{a.description}</div></td>
      <td {...cell(t('activities.actions.record'), !a.links?.length)}><RecordLinks links={a.links} /></td>
      <td {...cell(t('activities.col.assigned'), !a.assignedTo)}>{a.assignedTo?.description}</td>
      <td {...cell(t('activities.col.createdBy'), !a.createdBy)}>{a.createdBy}</td>
      <td style={{ whiteSpace: 'nowrap' }} {...cell(t('activities.col.createdOn'), !a.createdOn)}>{formatDateTime(a.createdOn)}</td>
      <td style={{ whiteSpace: 'nowrap' }} {...cell(t('activities.col.completedOn'), !a.doneDate)}>{formatDateTime(a.doneDate)}</td>
    </tr>
  );
}
