import { ActionIcon, Alert, Anchor, Badge, Button, Center, Grid, Group, Loader, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { AVAILABILITY_PAGE_SIZES, RESERVATION_CANCELLED, RESERVATION_STAGES, RESERVATION_STAGE_CLASS } from '@crm/contract/reservation-fields';
import type { TAvailabilityRow } from '@crm/contract';
import { FilterCard } from '../../../components/filter-card.tsx';
import { ListHeader, ListPager } from '../../../components/data-table.tsx';
import { IconPlus } from '../../../components/icons.ts';
import { SearchPicker } from '../../../components/search-picker.tsx';
import { agencyToday, agencyTodayDate } from '../../../lib/agency-clock.ts';
import { describeError } from '../../../lib/errors.ts';
import { asHeading, formatDate } from '../../../lib/format.ts';
import { currentCulture } from '../../../lib/i18n.ts';
import { useCookieState, useSavedFilter } from '../../../lib/list-state.ts';
import { ClearFiltersButton } from '../../../components/clear-filters.tsx';
import { AVAILABILITY_FILTER, availabilityQuery, NO_AVAILABILITY_FILTER, searchShortLetObjects, type TAvailabilityFilter } from '../api/reservations.ts';
import {
  AVAILABILITY_MODES,
  AVAILABILITY_VIEW,
  AVAILABILITY_VIEW_COOKIE,
  availabilityWindow,
  keptView,
  nightsOf,
  parseDay,
  rowCells,
  stepAnchor,
  type AvailabilityMode,
  type AvailabilityView,
} from '../availability.ts';
import { IconChevronLeft, IconChevronRight, IconList } from '../icons.ts';
import { TextFilter } from '../text-filter.tsx';
import './reservations.css';

const LOCALES = { en: 'en-GB', el: 'el-GR', ru: 'ru-RU' } as const;
/** The stages a booked night can show (a cancelled booking holds no night). */
const LEGEND = RESERVATION_STAGES.filter((n) => n !== RESERVATION_CANCELLED);
const pad = (n: number) => String(n).padStart(2, '0');
const isoDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/**
 * /Reservations/Availability: the short-let properties (rows, paged by the server) by the nights of
 * a month or of 14 or 30 days (columns). A booked night shows the booking that holds it (its guest,
 * coloured by stage, a link to it); a free night of a property let short opens New reservation for
 * that property with that check-in. The period (?date= in the address), the period's length and
 * the page size (cookie), and the filters (cookie) are kept. On a phone the grid scrolls sideways
 * under its fixed column of properties.
 */
export function AvailabilityPage() {
  const { t } = useTranslation();
  const locale = LOCALES[currentCulture()];
  const [keptRaw, setView] = useCookieState<AvailabilityView>(AVAILABILITY_VIEW_COOKIE, AVAILABILITY_VIEW);
  const view = keptView(keptRaw, AVAILABILITY_PAGE_SIZES);
  const [filter, setFilter] = useSavedFilter(AVAILABILITY_FILTER);
  // The page belongs to its period: another month (Previous, Next, Today, the length, Back) starts
  // at page 1, or a page 3 of August would ask September, with fewer rows, for an empty page.
  const [paged, setPaged] = useState({ period: '', page: 1 });
  const [params, setParams] = useSearchParams();
  const anchor = parseDay(params.get('date')) ?? agencyTodayDate();
  const setAnchor = (d: Date) =>
    setParams(
      (p) => {
        const n = new URLSearchParams(p);
        n.set('date', isoDay(d));
        return n;
      },
      { replace: true },
    );
  const w = availabilityWindow(view.mode, anchor);
  const nights = nightsOf(w.from, w.days);
  const period = `${w.from}/${w.days}`;
  const page = paged.period === period ? paged.page : 1;
  const setPage = (p: number) => setPaged({ period, page: p });
  const q = useQuery(availabilityQuery(w, filter, { perPage: view.perPage, currentPage: page }));
  const change = (patch: Partial<TAvailabilityFilter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    setPage(1);
  };
  const filtered = JSON.stringify(filter) !== JSON.stringify(NO_AVAILABILITY_FILTER);
  const today = agencyToday();
  const dayOf = (s: string) => parseDay(s)!;
  const title =
    view.mode === 'month'
      ? asHeading(dayOf(w.from).toLocaleDateString(locale, { month: 'long', year: 'numeric' }))
      : `${dayOf(w.from).toLocaleDateString(locale, { day: 'numeric', month: 'short' })} – ${dayOf(nights[nights.length - 1]!).toLocaleDateString(locale, { day: 'numeric', month: 'short', year: 'numeric' })}`;
  const total = q.data?.totalRows;

  return (
    <Stack gap="sm" data-testid="availability-page" data-mode={view.mode} data-from={w.from}>
      <ListHeader title={t('title.availability')} count={total} testId="availability">
        <Button component={Link} to="/Reservations" variant="default" leftSection={<IconList size={16} />} data-testid="availability-list">
          {t('reservations.availability.list')}
        </Button>
        <Button component={Link} to="/Reservations/Add" leftSection={<IconPlus size={16} />} data-testid="availability-add">
          {t('reservations.ui.add')}
        </Button>
      </ListHeader>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs" wrap="nowrap">
          <ActionIcon variant="default" size="lg" onClick={() => setAnchor(stepAnchor(view.mode, anchor, -1))} aria-label={t('calendar.previous')} data-testid="availability-prev">
            <IconChevronLeft size={18} />
          </ActionIcon>
          <Button variant="default" onClick={() => setAnchor(agencyTodayDate())} data-testid="availability-today">
            {t('calendar.today')}
          </Button>
          <ActionIcon variant="default" size="lg" onClick={() => setAnchor(stepAnchor(view.mode, anchor, 1))} aria-label={t('calendar.next')} data-testid="availability-next">
            <IconChevronRight size={18} />
          </ActionIcon>
          <Title order={3} size="h4" data-testid="availability-title">
            {title}
          </Title>
        </Group>
        <SegmentedControl
          value={view.mode}
          onChange={(v) => setView((s) => ({ ...keptView(s, AVAILABILITY_PAGE_SIZES), mode: v as AvailabilityMode }))}
          data={AVAILABILITY_MODES.map((m) => ({ value: m, label: t(`reservations.availability.mode.${m}`) }))}
          aria-label={t('reservations.availability.modeLabel')}
          data-testid="availability-mode"
        />
      </Group>
      <FilterCard active={filtered} testId="availability-filter">
        <Grid gap="sm" align="flex-end">
          <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
            <SearchPicker
              label={t('fields.reservation.objectId')}
              value={filter.objectId ? { id: filter.objectId, text: filter.objectText } : null}
              onChange={(v) => change({ objectId: v?.id ?? null, objectText: v?.text ?? '' })}
              search={searchShortLetObjects}
              queryKey="object-str"
              testId="availability-filter-object"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <TextFilter label={t('fields.object.websiteCode')} value={filter.objectWebsiteCode} onChange={(v) => change({ objectWebsiteCode: v })} testId="availability-filter-code" />
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 'content' }}>
            <ClearFiltersButton fullWidth disabled={!filtered} onClear={() => change(NO_AVAILABILITY_FILTER)} />
          </Grid.Col>
        </Grid>
      </FilterCard>
      {q.isError && !q.data && <Alert color="red">{describeError(q.error).message}</Alert>}
      {!q.data ? (
        !q.isError && (
          <Center py="md">
            <Loader size="sm" />
          </Center>
        )
      ) : q.data.totalRows === 0 ? (
        <Stack gap="xs" align="flex-start" data-testid="availability-empty">
          <Text c="dimmed">{filtered ? t('reservations.availability.noMatch') : t('reservations.availability.empty')}</Text>
          {filtered && <ClearFiltersButton variant="light" onClear={() => change(NO_AVAILABILITY_FILTER)} />}
        </Stack>
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {t('reservations.availability.hint')}
          </Text>
          <Group gap="sm" wrap="wrap" role="list" aria-label={t('fields.reservation.reservationStage')} data-testid="availability-legend">
            {LEGEND.map((n) => (
              <span key={n} role="listitem" className={`availability-legend stay-stage ${RESERVATION_STAGE_CLASS[n]}`}>
                <span className="availability-swatch" aria-hidden="true" />
                {t(`reservations.stage.${n}`)}
              </span>
            ))}
          </Group>
          <div className="availability-scroll" data-testid="availability-grid" data-loading={q.isFetching ? 'true' : 'false'}>
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
                    const d = dayOf(n);
                    const weekend = d.getDay() === 0 || d.getDay() === 6;
                    return (
                      <th
                        key={n}
                        scope="col"
                        className={['availability-night', weekend ? 'weekend' : '', n === today ? 'today' : '', n < today ? 'past' : ''].filter(Boolean).join(' ')}
                        data-night={n}
                      >
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
                {q.data.items.map((row) => (
                  <PropertyRow key={row.objectId} row={row} nights={nights} today={today} />
                ))}
              </tbody>
            </table>
          </div>
          <ListPager
            testId="availability"
            total={q.data.totalRows}
            page={page}
            perPage={view.perPage}
            pageSizes={AVAILABILITY_PAGE_SIZES}
            onPage={setPage}
            onPerPage={(n) => {
              setView((s) => ({ ...keptView(s, AVAILABILITY_PAGE_SIZES), perPage: n }));
              setPage(1);
            }}
          />
        </>
      )}
    </Stack>
  );
}

/** A property's row: its reference, website code and title, then its nights, booked or free. */
function PropertyRow({ row, nights, today }: { row: TAvailabilityRow; nights: string[]; today: string }) {
  const { t } = useTranslation();
  return (
    <tr data-testid="availability-row" data-object={row.objectId}>
      <th scope="row" className="availability-object">
        <Anchor component={Link} to={`/Objects/View/${row.objectId}`} size="sm" fw={600}>
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
                  to={`/Reservations/Add?objectId=${row.objectId}&checkIn=${c.night}`}
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
            <Link to={`/Reservations/${s.id}`} className="availability-stay-link" aria-label={label} title={label}>
              {s.clientDisplayName}
            </Link>
          </td>
        );
      })}
    </tr>
  );
}
