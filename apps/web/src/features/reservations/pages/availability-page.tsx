import { ActionIcon, Button, Center, Group, Loader, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link, useSearchParams } from 'react-router';
import { AVAILABILITY_PAGE_SIZES } from '@crm/contract/reservation-fields';
import { RESERVATION, href } from '@crm/contract/resources';
import { FilterCard } from '../../../components/filter-card.tsx';
import { ListHeader, ListPager } from '../../../components/data-table.tsx';
import { IconPlus } from '../../../components/icons.ts';
import { agencyToday, agencyTodayDate } from '../../../lib/agency-clock.ts';
import { asHeading } from '../../../lib/format.ts';
import { currentCulture } from '../../../lib/i18n.ts';
import { useCookieState, useSavedFilter } from '../../../lib/list-state.ts';
import { ClearFiltersButton } from '../../../components/clear-filters.tsx';
import { FilterFields } from '../../../kit/filter-fields.tsx';
import { useDebouncedFields } from '../../../kit/list-screen.tsx';
import { AVAILABILITY_FILTER, availabilityQuery, NO_AVAILABILITY_FILTER, searchShortLetObjects, type TAvailabilityFilter } from '../api/reservations.ts';
import { AVAILABILITY_MODES, AVAILABILITY_VIEW, AVAILABILITY_VIEW_COOKIE, availabilityWindow, keptView, nightsOf, parseDay, stepAnchor, type AvailabilityMode, type AvailabilityView } from '../availability.ts';
import { AvailabilityGrid, AvailabilityLegend } from '../components/availability-grid.tsx';
import { IconChevronLeft, IconChevronRight, IconList } from '../icons.ts';
import './reservations.css';
import { FailureAlert } from '../../../components/failure-alert.tsx';

const LOCALES = { en: 'en-GB', el: 'el-GR', ru: 'ru-RU' } as const;
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
  // The website code typed is asked for once the typing pauses.
  const typed = useDebouncedFields(filter, ['objectWebsiteCode']);
  const q = useQuery(availabilityQuery(w, typed, { perPage: view.perPage, currentPage: page }));
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
        <Button component={Link} to={href(RESERVATION.screens.list)} variant="default" leftSection={<IconList size={16} />} data-testid="availability-list">
          {t('reservations.availability.list')}
        </Button>
        <Button component={Link} to={href(RESERVATION.screens.add)} leftSection={<IconPlus size={16} />} data-testid="availability-add">
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
        <FilterFields<TAvailabilityFilter>
          fields={[
            { kind: 'picker', name: 'objectId', textName: 'objectText', label: t('fields.reservation.objectId'), search: searchShortLetObjects, queryKey: 'object-str', testId: 'availability-filter-object', span: { base: 12, sm: 6, lg: 4 } },
            { kind: 'text', name: 'objectWebsiteCode', label: t('fields.object.websiteCode'), testId: 'availability-filter-code', span: { base: 12, sm: 6, lg: 3 } },
          ]}
          filter={filter}
          change={change}
          filtered={filtered}
          onClear={() => change(NO_AVAILABILITY_FILTER)}
          testId="availability-filter"
        />
      </FilterCard>
      {!q.data && <FailureAlert failure={q.error} />}
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
          <AvailabilityLegend />
          <AvailabilityGrid rows={q.data.items} nights={nights} today={today} locale={locale} title={title} fetching={q.isFetching} />
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
