import { Alert, Anchor, Grid, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/use-translation.tsx';
import { Link } from 'react-router';
import type { TResultsPeriod, TResultsRow } from '@crm/contract';
import { DEAL_TYPE_RENTAL, DEAL_TYPE_SALE } from '@crm/contract/deal-fields';
import { FilterCard } from '../../components/filter-card.tsx';
import { DownloadButton } from '../../components/download-button.tsx';
import { ApiError } from '../../lib/api.ts';
import { formatAmount, formatDate } from '../../lib/format.ts';
import { isOfficeAdmin, useSession } from '../../lib/session.ts';
import { useSavedFilter } from '../../lib/list-state.ts';
import { DateField } from '../../components/fields/date-field.tsx';
import { NO_RESULTS_FILTER, RESULTS_FILTER, complete, downloadResults, openDeals, openLeads, openViewings, resultsQuery, type TResultsFilter } from './results-api.ts';
import './results.css';

const PERIODS: readonly TResultsPeriod[] = ['month', 'lastMonth', 'quarter', 'year', 'range'];
/** The viewings a "Viewings" number counts (HELD_VIEWING_RESULTS), and the offers. */
const HELD = [1, 2, 3, 4, 5] as const;
const OFFER = [4] as const;

type CountKey = 'properties' | 'viewings' | 'offers' | 'leads' | 'sales' | 'rentals';
type MoneyKey = 'salesValue' | 'salesCommission' | 'rentalsValue' | 'rentalsCommission' | 'commission';
const COLUMNS: readonly { key: CountKey | MoneyKey; money?: boolean }[] = [
  { key: 'properties' },
  { key: 'viewings' },
  { key: 'offers' },
  { key: 'leads' },
  { key: 'sales' },
  { key: 'salesValue', money: true },
  { key: 'salesCommission', money: true },
  { key: 'rentals' },
  { key: 'rentalsValue', money: true },
  { key: 'rentalsCommission', money: true },
  { key: 'commission', money: true },
];

/**
 * /Reports: each agent's results over a period (this month unless another is kept in the cookie),
 * with the office's totals; an agent's viewings, leads, sales and rentals open their lists filtered to them and the period.
 */
export function ResultsPage() {
  const { t } = useTranslation();
  const session = useSession();
  const [filter, setFilter] = useSavedFilter(RESULTS_FILTER);
  const q = useQuery(resultsQuery(filter));
  const change = (patch: Partial<TResultsFilter>) => setFilter((f) => ({ ...f, ...patch }));
  const errors = q.error instanceof ApiError ? q.error.fieldErrors : {};
  const data = complete(filter) && !q.isError ? q.data : undefined;

  const cell = (r: TResultsRow, key: CountKey | MoneyKey, money: boolean | undefined, total: boolean) => {
    const value = r[key];
    if (money) return formatAmount(value as string);
    if (total || r.accountId == null || !data || value === 0) return String(value);
    const agent = { id: r.accountId, name: r.name };
    const { from, till } = data;
    // Each count opens the list that shows what it counts: the agent's, in the period.
    const target: { to: string; open: () => void } | null =
      key === 'viewings' || key === 'offers'
        ? { to: '/Viewing', open: () => openViewings(agent, from, till, key === 'viewings' ? HELD : OFFER) }
        : key === 'leads'
          ? { to: '/Leads', open: () => openLeads(agent, from, till) }
          : key === 'sales' || key === 'rentals'
            ? { to: '/Deals', open: () => openDeals(agent, from, till, key === 'sales' ? DEAL_TYPE_SALE : DEAL_TYPE_RENTAL) }
            : null;
    if (!target) return String(value);
    return (
      <Anchor
        component={Link}
        to={target.to}
        onClick={target.open}
        title={t('reports.ui.open')}
        fz="inherit"
        data-testid={`results-link-${key}`}
      >
        {value}
      </Anchor>
    );
  };
  const row = (r: TResultsRow, total: boolean) => (
    <Table.Tr key={r.accountId ?? 'total'} className={total ? 'results-total' : undefined} data-testid={total ? 'results-total' : 'results-row'}>
      <Table.Th scope="row" className="results-name">
        {total ? t('reports.results.total') : r.name}
      </Table.Th>
      {COLUMNS.map((c) => (
        <Table.Td key={c.key} className="results-number" data-testid={`results-${c.key}`}>
          {cell(r, c.key, c.money, total)}
        </Table.Td>
      ))}
    </Table.Tr>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center" gap="sm">
        <Title order={2}>{t('reports.results.title')}</Title>
        <DownloadButton download={() => downloadResults(filter)} label={t('reports.ui.download')} disabled={!data} testId="results-download" />
      </Group>
      <FilterCard active={JSON.stringify(filter) !== JSON.stringify(NO_RESULTS_FILTER)} testId="results-filter">
        <Grid gap="sm" align="flex-start">
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <Select
              label={t('reports.ui.period')}
              data={PERIODS.map((p) => ({ value: p, label: t(`reports.ui.period.${p}`) }))}
              value={filter.period}
              onChange={(v) => change({ period: (v as TResultsPeriod | null) ?? 'month' })}
              allowDeselect={false}
              data-testid="results-period"
            />
          </Grid.Col>
          {filter.period === 'range' && (
            <>
              <Grid.Col span={{ base: 6, sm: 3, lg: 2 }}>
                <DateField label={t('reports.ui.from')} value={filter.from} onChange={(v) => change({ from: v })} error={errors.from} data-testid="results-from" />
              </Grid.Col>
              <Grid.Col span={{ base: 6, sm: 3, lg: 2 }}>
                <DateField label={t('reports.ui.till')} value={filter.till} onChange={(v) => change({ till: v })} error={errors.till} data-testid="results-till" />
              </Grid.Col>
            </>
          )}
          {isOfficeAdmin(session) && (
            <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
              <Select
                label={t('reports.ui.branch')}
                data={[{ value: '0', label: t('reports.ui.allBranches') }, ...(q.data?.branches ?? []).map((b) => ({ value: String(b.value), label: b.text }))]}
                value={String(filter.branchId ?? 0)}
                onChange={(v) => change({ branchId: Number(v ?? 0) || null })}
                allowDeselect={false}
                data-testid="results-branch"
              />
            </Grid.Col>
          )}
        </Grid>
      </FilterCard>
      {q.isError && !Object.keys(errors).length && <Alert color="red">{q.error.message}</Alert>}
      {data && (
        <Text size="sm" c="dimmed" data-testid="results-covers">
          {t('reports.ui.covers', { from: formatDate(data.from), till: formatDate(data.till) })}
        </Text>
      )}
      {data && (
        <Table.ScrollContainer minWidth={980} type="native" className="results-scroll" tabIndex={0} role="region" aria-label={t('reports.results.title')} data-testid="results-table">
          <Table highlightOnHover withTableBorder verticalSpacing="xs" horizontalSpacing={6} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col" className="results-name">
                  {t('reports.results.col.agent')}
                </Table.Th>
                {COLUMNS.map((c) => (
                  <Table.Th key={c.key} scope="col" className="results-number">
                    {t(`reports.results.col.${c.key}`)}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.rows.length ? (
                data.rows.map((r) => row(r, false))
              ) : (
                <Table.Tr>
                  <Table.Td colSpan={COLUMNS.length + 1}>{t('reports.ui.none')}</Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
            {data.rows.length > 0 && <Table.Tfoot>{row(data.totals, true)}</Table.Tfoot>}
          </Table>
        </Table.ScrollContainer>
      )}
      <Text size="xs" c="dimmed" data-testid="results-note">
        {t('reports.ui.note')}
      </Text>
    </Stack>
  );
}
