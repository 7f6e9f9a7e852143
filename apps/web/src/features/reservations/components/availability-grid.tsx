import { Anchor, Badge, Group, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import { RESERVATION_CANCELLED, RESERVATION_STAGES, RESERVATION_STAGE_CLASS } from '@crm/contract/reservation-fields';
import type { TAvailabilityRow } from '@crm/contract';
import { OBJECT, RESERVATION, href } from '@crm/contract/resources';
import { formatDate } from '../../../lib/format.ts';
import { parseDay, rowCells } from '../availability.ts';

/** The stages a booked night can show (a cancelled booking holds no night). */
const LEGEND = RESERVATION_STAGES.filter((n) => n !== RESERVATION_CANCELLED);

/** The stages' colours, named. */
export function AvailabilityLegend() {
  const { t } = useTranslation();
  return (
    <Group gap="sm" wrap="wrap" role="list" aria-label={t('fields.reservation.reservationStage')} data-testid="availability-legend">
      {LEGEND.map((n) => (
        <span key={n} role="listitem" className={`availability-legend stay-stage ${RESERVATION_STAGE_CLASS[n]}`}>
          <span className="availability-swatch" aria-hidden="true" />
          {t(`reservations.stage.${n}`)}
        </span>
      ))}
    </Group>
  );
}

/**
 * The grid: the properties (rows) by the period's nights (columns), the property column fixed while
 * the nights scroll sideways on a phone.
 */
export function AvailabilityGrid({ rows, nights, today, locale, title, fetching }: { rows: TAvailabilityRow[]; nights: string[]; today: string; locale: string; title: string; fetching: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="availability-scroll" data-testid="availability-grid" data-loading={fetching ? 'true' : 'false'}>
      <table className="availability-grid" style={{ minWidth: `calc(var(--availability-object) + ${nights.length} * var(--availability-night))` }} aria-label={`${t('title.availability')}: ${title}`}>
        <colgroup>
          <col className="availability-object-col" />
          {nights.map((n) => (
            <col key={n} />
          ))}
        </colgroup>
        <thead>
          <tr>
            <th scope="col" className="availability-object">
              {t('fields.reservation.objectId')}
            </th>
            {nights.map((n) => {
              const d = parseDay(n)!;
              const weekend = d.getDay() === 0 || d.getDay() === 6;
              return (
                <th key={n} scope="col" className={['availability-night', weekend ? 'weekend' : '', n === today ? 'today' : '', n < today ? 'past' : ''].filter(Boolean).join(' ')} data-night={n}>
                  <abbr title={d.toLocaleDateString(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' })}>
                    <span className="availability-weekday">{d.toLocaleDateString(locale, { weekday: 'short' })}</span>
                    <span className="availability-day">{d.getDate()}</span>
                  </abbr>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <PropertyRow key={row.objectId} row={row} nights={nights} today={today} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A property's row: its reference, website code and title, then its nights, booked or free. */
function PropertyRow({ row, nights, today }: { row: TAvailabilityRow; nights: string[]; today: string }) {
  const { t } = useTranslation();
  return (
    <tr data-testid="availability-row" data-object={row.objectId}>
      <th scope="row" className="availability-object">
        <Anchor component={Link} to={href(OBJECT.screens.view, { id: row.objectId })} size="sm" fw={600}>
          #{row.objectReferenceNumber}
        </Anchor>
        {row.objectWebsiteCode && (
          <Text span size="xs" c="dimmed" ml={6} className="availability-code">
            {row.objectWebsiteCode}
          </Text>
        )}
        {row.objectTitle && (
          <Text size="xs" truncate="end" title={row.objectTitle} className="availability-object-title">
            {row.objectTitle}
          </Text>
        )}
        {!row.forShortRent && (
          <Badge size="xs" variant="light" color="gray" data-testid="availability-not-short-let">
            {t('reservations.availability.notShortLet')}
          </Badge>
        )}
      </th>
      {rowCells(nights, row.stays).map((c) => {
        if (c.kind === 'free') {
          const weekday = new Date(`${c.night}T12:00:00`).getDay();
          const className = ['availability-free', c.night < today ? 'past' : '', c.night === today ? 'today' : '', weekday === 0 || weekday === 6 ? 'weekend' : ''].filter(Boolean).join(' ');
          return (
            <td key={c.night} className={className} data-testid="availability-free" data-night={c.night}>
              {/* A property no longer let short takes no new booking: its free nights are only free. */}
              {row.forShortRent && (
                <Link
                  to={href(RESERVATION.screens.add, undefined, { objectId: row.objectId, checkIn: c.night })}
                  className="availability-book"
                  aria-label={t('reservations.availability.book', { ref: row.objectReferenceNumber, day: formatDate(c.night) })}
                />
              )}
            </td>
          );
        }
        const s = c.stay;
        const label = t('reservations.availability.stay', { number: s.id, client: s.clientDisplayName, from: formatDate(s.checkIn), till: formatDate(s.checkOut), stage: s.stage });
        return (
          <td
            key={c.night}
            colSpan={c.span}
            className={['availability-stay', 'stay-stage', s.rowClass, c.before ? 'before' : '', c.after ? 'after' : ''].filter(Boolean).join(' ')}
            data-testid="availability-stay"
            data-id={s.id}
            data-night={c.night}
            data-span={c.span}
          >
            <Link to={href(RESERVATION.screens.view, { id: s.id })} className="availability-stay-link" aria-label={label} title={label}>
              {s.clientDisplayName}
            </Link>
          </td>
        );
      })}
    </tr>
  );
}
