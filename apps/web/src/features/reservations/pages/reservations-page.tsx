import { Button, Group } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { RESERVATION_SUMS } from '@crm/contract/reservation-fields';
import { RESERVATION, href } from '@crm/contract/resources';
import { TotalsCard } from '../../../components/totals-card.tsx';
import { agencyTodayDate } from '../../../lib/agency-clock.ts';
import { ListScreen } from '../../../kit/list-screen.tsx';
import { IconCalendarMonth } from '../icons.ts';
import { RESERVATIONS, downloadReservations, searchShortLetObjects } from '../api/reservations.ts';
import { QUICK_RANGES, quickRange } from '../quick-ranges.ts';
import { reservationColumns } from '../components/reservation-columns.tsx';
import './reservations.css';

/** /Reservations: the short-let bookings with their filters (kept in a cookie) and the footer's sums over every matching row (cancelled ones only when the stage filter picks them). */
export function ReservationsPage() {
  const { t } = useTranslation();
  return (
    <ListScreen
      {...RESERVATIONS}
      // The same bookings night by night, property by property: which nights are still free.
      views={[{ to: href(RESERVATION.screens.availability), icon: IconCalendarMonth, label: t('reservations.ui.availability'), testId: 'reservations-availability' }]}
      download={{ label: t('reservations.ui.download'), testId: 'reservations-download', run: (filter, page) => downloadReservations(filter, { sortBy: page.sortBy, sortDir: page.sortDir }) }}
      rowClassName={(r) => `reservation-row ${r.rowClass}`}
      fields={({ answer, filter, change }) => {
        // Undefined dates are the server's default period (the current year), shown as it answered them.
        const startDate = filter.startDate === undefined ? (answer?.startDate ?? null) : filter.startDate;
        const endDate = filter.endDate === undefined ? (answer?.endDate ?? null) : filter.endDate;
        const all = t('leads.ui.filter.all');
        return [
          { kind: 'picker', name: 'objectId', textName: 'objectText', label: t('fields.reservation.objectId'), search: searchShortLetObjects, queryKey: 'object-str', testId: 'reservations-filter-object', span: { base: 12, sm: 6, lg: 3 } },
          { kind: 'text', name: 'objectWebsiteCode', label: t('fields.object.websiteCode'), testId: 'reservations-filter-code', span: { base: 6, sm: 3, lg: 2 } },
          { kind: 'text', name: 'reservationNumber', label: t('reservations.ui.filter.number'), testId: 'reservations-filter-number', span: { base: 6, sm: 3, lg: 2 } },
          { kind: 'text', name: 'reservationNumberExternal', label: t('fields.reservation.reservationNumberExternal'), testId: 'reservations-filter-external' },
          { kind: 'text', name: 'clientName', label: t('reservations.ui.filter.clientName'), testId: 'reservations-filter-client', span: { base: 12, sm: 6, lg: 3 } },
          { kind: 'select', name: 'dateFilterType', label: t('reservations.ui.filter.dateType'), options: answer?.options.dateFilterTypes, numeric: true, testId: 'reservations-filter-datetype', span: { base: 12, sm: 4, lg: 2 } },
          { kind: 'date', name: 'startDate', label: t('reservations.ui.filter.from'), shown: startDate, alongside: { endDate }, testId: 'reservations-filter-from', span: { base: 6, sm: 4, lg: 2 } },
          { kind: 'date', name: 'endDate', label: t('reservations.ui.filter.till'), shown: endDate, alongside: { startDate }, testId: 'reservations-filter-till', span: { base: 6, sm: 4, lg: 2 } },
          {
            kind: 'custom',
            key: 'quick',
            span: { base: 12, lg: 'content' },
            // This week's arrivals, today's departures: one tap, the date type as chosen.
            render: () => (
              <Group gap={6} role="group" aria-label={t('reservations.ui.quick.label')} data-testid="reservations-quick">
                {QUICK_RANGES.map((r) => (
                  <Button key={r} size="compact-sm" variant="light" onClick={() => change(quickRange(r, agencyTodayDate()))} data-testid={`reservations-quick-${r}`}>
                    {t(`reservations.ui.quick.${r}`)}
                  </Button>
                ))}
              </Group>
            ),
          },
          { kind: 'multi', name: 'stages', label: t('reservations.ui.filter.stages'), options: answer?.options.stages, allLabel: all, testId: 'reservations-filter-stages', span: { base: 12, sm: 6, lg: 3 } },
          { kind: 'multi', name: 'sources', label: t('reservations.ui.filter.sources'), options: answer?.options.sources, allLabel: all, searchable: true, testId: 'reservations-filter-sources', span: { base: 12, sm: 6, lg: 3 } },
        ];
      }}
      columns={() => reservationColumns(t)}
      after={({ answer }) =>
        answer && answer.totalRows > 0 ? (
          <TotalsCard
            title={t('reservations.ui.sums', { count: answer.totalRows })}
            totals={RESERVATION_SUMS.map((k) => ({ key: k, label: t(`fields.reservation.${k}`), amount: answer.sums[k] }))}
            // The count above keeps them; the money does not (a cancelled booking earns nothing).
            note={answer.sumsWithCancelled ? null : t('reservations.ui.sumsNoCancelled')}
            cols={{ base: 2, sm: 3, lg: 5 }}
            className="reservation-sums"
            testId="reservations-sums"
            sumTestId={(k) => `reservations-sum-${k}`}
          />
        ) : null
      }
    />
  );
}
