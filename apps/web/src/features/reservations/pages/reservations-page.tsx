import { ActionIcon, Anchor, Button, Grid, Group, MultiSelect, Select, Stack, Text, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RESERVATION_PAGE_SIZES, RESERVATION_SUMS } from '@crm/contract/reservation-fields';
import type { TReservationRow, TSelectOption } from '@crm/contract';
import { FilterCard } from '../../../components/filter-card.tsx';
import { DataTable, ListHeader, type DataTableColumn, NOT_WIDE_SCREEN, WIDE_SCREEN } from '../../../components/data-table.tsx';
import { IconAlertTriangle, IconPencil, IconPlus } from '../../../components/icons.ts';
import { IconCalendarMonth } from '../icons.ts';
import { SearchPicker } from '../../../components/search-picker.tsx';
import { TotalsCard } from '../../../components/totals-card.tsx';
import { DownloadButton } from '../../../components/download-button.tsx';
import { formatDate, formatMoney2 } from '../../../lib/format.ts';
import { useSavedFilter, useSavedList } from '../../../lib/list-state.ts';
import { ClearFiltersButton } from '../../../components/clear-filters.tsx';
import { DateField } from '../../../components/fields/date-field.tsx';
import { NO_RESERVATION_FILTER, RESERVATION_FILTER, RESERVATION_LIST, downloadReservations, reservationsQuery, searchShortLetObjects, type TReservationFilter } from '../api/reservations.ts';
import './reservations.css';
import { ChoicesFilter } from '../../../components/fields/choices-filter.tsx';
import { agencyTodayDate } from '../../../lib/agency-clock.ts';
import { QUICK_RANGES, quickRange } from '../quick-ranges.ts';
import { TextFilter } from '../text-filter.tsx';

const choices = (o: TSelectOption[] | undefined) => (o ?? []).map((x) => ({ value: String(x.value), label: x.text }));

/** /Reservations: the short-let bookings with their filters (kept in a cookie) and the footer's sums over every matching row (cancelled ones only when the stage filter picks them). */

export function ReservationsPage() {
  const { t } = useTranslation();
  const list = useSavedList(RESERVATION_LIST);
  const [filter, setFilter] = useSavedFilter(RESERVATION_FILTER);
  const q = useQuery(reservationsQuery(filter, list[0]));
  const change = (patch: Partial<TReservationFilter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    list[1]((s) => ({ ...s, currentPage: 1 }));
  };
  const filtered = JSON.stringify(filter) !== JSON.stringify(NO_RESERVATION_FILTER);
  const money = (n: number | null) => formatMoney2(n);

  const columns: DataTableColumn<TReservationRow>[] = [
    {
      accessor: 'id',
      title: '#',
      sortable: true,
      noWrap: true,
      card: 'title',
      render: (r) => (
        <Group gap={4} wrap="nowrap">
          <Anchor component={Link} to={`/Reservations/${r.id}`} data-testid="reservation-link">
            {r.reservationNumber}
          </Anchor>
          {(r.problem || r.awaiting) && (
            <Tooltip label={[r.problem && `${t('fields.reservation.problem')}: ${r.problem}`, r.awaiting && `${t('fields.reservation.awaiting')}: ${r.awaiting}`].filter(Boolean).join(' · ')} multiline w={260}>
              <span role="img" aria-label={t('reservations.ui.attention')} data-testid="reservation-warning" style={{ display: 'inline-flex', color: 'var(--mantine-color-orange-8)' }}>
                <IconAlertTriangle size={16} />
              </span>
            </Tooltip>
          )}
        </Group>
      ),
    },
    { accessor: 'stage', title: t('fields.reservation.reservationStage') },
    {
      accessor: 'object',
      title: t('fields.reservation.objectId'),
      render: (r) => (
        // The codes on one line, the title in two at most (its whole text in the tooltip): a long
        // title no longer makes the row six lines tall at 1280 px.
        <Anchor component={Link} to={`/Objects/View/${r.objectId}`} className="reservation-object" title={r.objectTitle ?? undefined}>
          <span className="reservation-object-codes">
            #{r.objectReferenceNumber}
            {r.objectWebsiteCode ? ` · ${r.objectWebsiteCode}` : ''}
          </span>
          {r.objectTitle && <span className="line-clamp" style={{ ['--lines' as string]: 2 }}>{r.objectTitle}</span>}
        </Anchor>
      ),
    },
    {
      accessor: 'clientDisplayName',
      title: t('reservations.ui.col.client'),
      render: (r) =>
        r.clientAccountId ? (
          <Anchor component={Link} to={`/Accounts/View/${r.clientAccountId}`}>
            {r.clientDisplayName}
          </Anchor>
        ) : (
          r.clientDisplayName
        ),
    },
    { accessor: 'checkIn', title: t('fields.reservation.checkIn'), sortable: true, noWrap: true, render: (r) => formatDate(r.checkIn) },
    { accessor: 'duration', title: t('reservations.ui.col.nights'), textAlign: 'right' },
    { accessor: 'checkOut', title: t('fields.reservation.checkOut'), sortable: true, noWrap: true, render: (r) => formatDate(r.checkOut) },
    { accessor: 'sourceDisplayName', title: t('fields.reservation.sourceId') },
    { accessor: 'total', title: t('fields.reservation.total'), sortable: true, textAlign: 'right', noWrap: true, render: (r) => money(r.total) },
    { accessor: 'paymentToOwner', title: t('fields.reservation.paymentToOwner'), textAlign: 'right', noWrap: true, render: (r) => money(r.paymentToOwner) },
    { accessor: 'comission', title: t('fields.reservation.comission'), textAlign: 'right', noWrap: true, visibleMediaQuery: WIDE_SCREEN, render: (r) => money(r.comission) },
    { accessor: 'comission3rdParty', title: t('fields.reservation.comission3rdParty'), textAlign: 'right', noWrap: true, visibleMediaQuery: WIDE_SCREEN, render: (r) => money(r.comission3rdParty) },
    { accessor: 'finalComission', title: t('fields.reservation.finalComission'), textAlign: 'right', noWrap: true, visibleMediaQuery: WIDE_SCREEN, render: (r) => money(r.finalComission) },
    // Under 1600 px the three commissions share one column, each on a line under its name: the
    // list's every column then fits an office laptop's 1280 px.
    {
      accessor: 'commissions',
      title: t('reservations.ui.col.commissions'),
      textAlign: 'right',
      visibleMediaQuery: NOT_WIDE_SCREEN,
      render: (r) =>
        (
          [
            ['comission', r.comission],
            ['comission3rdParty', r.comission3rdParty],
            ['finalComission', r.finalComission],
          ] as const
        )
          // No third party: no line with a label and no amount.
          .filter(([key, amount]) => key !== 'comission3rdParty' || (amount != null && Number(amount) !== 0))
          .map(([key, amount]) => (
          <div key={key}>
            <Text span size="xs" c="dimmed">
              {t(`reservations.ui.col.${key}Short`)}{' '}
            </Text>
            <span style={{ whiteSpace: 'nowrap' }}>{money(amount)}</span>
          </div>
        )),
    },
    {
      accessor: 'edit',
      title: t('reservations.ui.col.edit'),
      card: 'action',
      render: (r) => (
        <ActionIcon component={Link} to={`/Reservations/Edit/${r.id}`} variant="subtle" aria-label={t('reservations.ui.editOne', { id: r.id })}>
          <IconPencil size={16} />
        </ActionIcon>
      ),
    },
  ];
  const add = (
    <Button component={Link} to="/Reservations/Add" leftSection={<IconPlus size={16} />} data-testid="reservations-add">
      {t('reservations.ui.add')}
    </Button>
  );
  // The same bookings night by night, property by property: which nights are still free.
  const grid = (
    <Button component={Link} to="/Reservations/Availability" variant="default" leftSection={<IconCalendarMonth size={16} />} data-testid="reservations-availability">
      {t('reservations.ui.availability')}
    </Button>
  );
  const options = q.data?.options;
  return (
    <Stack gap="md">
      <ListHeader title={t('title.reservations')} count={q.data?.totalRows} testId="reservations">
        {grid}
        <DownloadButton
          download={() => downloadReservations(filter, { sortBy: list[0].sortBy, sortDir: list[0].sortDir })}
          label={t('reservations.ui.download')}
          disabled={!q.data?.totalRows}
          testId="reservations-download"
        />
        {add}
      </ListHeader>
      <FilterCard active={filtered} testId="reservations-filter">
        <Grid gap="sm" align="flex-end">
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <SearchPicker
              label={t('fields.reservation.objectId')}
              value={filter.objectId ? { id: filter.objectId, text: filter.objectText } : null}
              onChange={(v) => change({ objectId: v?.id ?? null, objectText: v?.text ?? '' })}
              search={searchShortLetObjects}
              queryKey="object-str"
              testId="reservations-filter-object"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 3, lg: 2 }}>
            <TextFilter label={t('fields.object.websiteCode')} value={filter.objectWebsiteCode} onChange={(v) => change({ objectWebsiteCode: v })} testId="reservations-filter-code" />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 3, lg: 2 }}>
            <TextFilter label={t('reservations.ui.filter.number')} value={filter.reservationNumber} onChange={(v) => change({ reservationNumber: v })} testId="reservations-filter-number" />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 2 }}>
            <TextFilter
              label={t('fields.reservation.reservationNumberExternal')}
              value={filter.reservationNumberExternal}
              onChange={(v) => change({ reservationNumberExternal: v })}
              testId="reservations-filter-external"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <TextFilter label={t('reservations.ui.filter.clientName')} value={filter.clientName} onChange={(v) => change({ clientName: v })} testId="reservations-filter-client" />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 4, lg: 2 }}>
            <Select
              label={t('reservations.ui.filter.dateType')}
              data={choices(options?.dateFilterTypes)}
              value={String(filter.dateFilterType)}
              onChange={(v) => v != null && change({ dateFilterType: Number(v) })}
              allowDeselect={false}
              data-testid="reservations-filter-datetype"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 4, lg: 2 }}>
            <DateField
              label={t('reservations.ui.filter.from')}
              value={filter.startDate === undefined ? (q.data?.startDate ?? null) : filter.startDate}
              onChange={(v) => change({ startDate: v, endDate: filter.endDate === undefined ? (q.data?.endDate ?? null) : filter.endDate })}
              data-testid="reservations-filter-from"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 4, lg: 2 }}>
            <DateField
              label={t('reservations.ui.filter.till')}
              value={filter.endDate === undefined ? (q.data?.endDate ?? null) : filter.endDate}
              onChange={(v) => change({ endDate: v, startDate: filter.startDate === undefined ? (q.data?.startDate ?? null) : filter.startDate })}
              data-testid="reservations-filter-till"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 'content' }}>
            {/* This week's arrivals, today's departures: one tap, the date type as chosen. */}
            <Group gap={6} role="group" aria-label={t('reservations.ui.quick.label')} data-testid="reservations-quick">
              {QUICK_RANGES.map((r) => (
                <Button key={r} size="compact-sm" variant="light" onClick={() => change(quickRange(r, agencyTodayDate()))} data-testid={`reservations-quick-${r}`}>
                  {t(`reservations.ui.quick.${r}`)}
                </Button>
              ))}
            </Group>
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <MultiSelect
              label={t('reservations.ui.filter.stages')}
              placeholder={filter.stages.length ? undefined : t('leads.ui.filter.all')}
              data={choices(options?.stages)}
              value={filter.stages.map(String)}
              onChange={(v) => change({ stages: v.map(Number) })}
              clearable
              data-testid="reservations-filter-stages"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <ChoicesFilter
              loaded={options !== undefined}
              label={t('reservations.ui.filter.sources')}
              placeholder={filter.sources.length ? undefined : t('leads.ui.filter.all')}
              data={choices(options?.sources)}
              value={filter.sources.map(String)}
              onChange={(v) => change({ sources: v.map(Number) })}
              clearable
              data-testid="reservations-filter-sources"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 'content' }}>
            <ClearFiltersButton fullWidth disabled={!filtered} onClear={() => change(NO_RESERVATION_FILTER)} />
          </Grid.Col>
        </Grid>
      </FilterCard>
      <DataTable
        testId="reservations-table"
        list={list}
        records={q.data?.items}
        totalRows={q.data?.totalRows}
        fetching={q.isFetching}
        columns={columns}
        pageSizes={RESERVATION_PAGE_SIZES}
        rowClassName={(r) => `reservation-row ${r.rowClass}`}
        empty={
          filtered
            ? { text: t('reservations.ui.noMatch'), action: <ClearFiltersButton variant="light" onClear={() => change(NO_RESERVATION_FILTER)} /> }
            : { text: t('reservations.ui.empty'), action: add }
        }
      />
      {q.data && q.data.totalRows > 0 && (
        <TotalsCard
          title={t('reservations.ui.sums', { count: q.data.totalRows })}
          totals={RESERVATION_SUMS.map((k) => ({ key: k, label: t(`fields.reservation.${k}`), amount: q.data.sums[k] }))}
          // The count above keeps them; the money does not (a cancelled booking earns nothing).
          note={q.data.sumsWithCancelled ? null : t('reservations.ui.sumsNoCancelled')}
          cols={{ base: 2, sm: 3, lg: 5 }}
          className="reservation-sums"
          testId="reservations-sums"
          sumTestId={(k) => `reservations-sum-${k}`}
        />
      )}
    </Stack>
  );
}
