import { ActionIcon, Anchor, Button, Grid, Group, MultiSelect, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TViewingRow } from '@crm/contract';
import { SEARCH_DEBOUNCE_MS, VIEWING_COMMENT_SEARCH_MAX } from '@crm/contract/constants';
import { FilterCard } from '../../../components/filter-card.tsx';
import { DataTable, ListHeader, type DataTableColumn } from '../../../components/data-table.tsx';
import { IconPencil, IconPlus, IconSearch } from '../../../components/icons.ts';
import { IconCalendar } from '../icons.ts';
import { SearchPicker } from '../../../components/search-picker.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { excerptParts } from '../../../lib/text-match.ts';
import { useSavedFilter, useSavedList } from '../../../lib/list-state.ts';
import { ClearFiltersButton } from '../../../components/clear-filters.tsx';
import { DateField } from '../../../components/fields/date-field.tsx';
import { NO_VIEWING_FILTER, VIEWING_FILTER, VIEWING_LIST, viewingsQuery, type TViewingFilter } from '../api/viewings.ts';
import './viewings.css';
import { searchEmployees, searchLeadsQuick, searchObjectsByRef } from '../../../lib/pickers.ts';

/** Page sizes of the viewing list (spec: 5, 20, 100; default 20). */
const PAGE_SIZES = [5, 20, 100] as const;

/** A comment as a search sees it: from near the first word found, the words found marked. */
function Marked({ text, search }: { text: string; search: string }) {
  return excerptParts(text, search).map((p, i) => (p.found ? <mark key={i}>{p.text}</mark> : p.text));
}

/** /Viewing: the viewings with their filters (kept in a cookie; the page goes back to 1 on a change). */
export function ViewingsPage() {
  const { t } = useTranslation();
  const list = useSavedList(VIEWING_LIST);
  const [filter, setFilter] = useSavedFilter(VIEWING_FILTER);
  // Typed words are asked for once the typing pauses; the first render asks for what the cookie
  // holds, as the route's loader did (the same query key).
  const [comment] = useDebouncedValue(filter.comment, SEARCH_DEBOUNCE_MS);
  const q = useQuery(viewingsQuery({ ...filter, comment }, { perPage: list[0].perPage, currentPage: list[0].currentPage }));
  const searched = comment.trim();
  const change = (patch: Partial<TViewingFilter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    list[1]((s) => ({ ...s, currentPage: 1 }));
  };
  const filtered = JSON.stringify(filter) !== JSON.stringify(NO_VIEWING_FILTER);

  const columns: DataTableColumn<TViewingRow>[] = [
    {
      accessor: 'id',
      title: '#',
      noWrap: true,
      render: (r) => (
        <Anchor component={Link} to={`/Viewing/${r.id}`} data-testid="viewing-link">
          {r.id}
        </Anchor>
      ),
    },
    { accessor: 'appointmentCreated', title: t('viewings.ui.col.appointmentCreated'), noWrap: true, render: (r) => formatDateTime(r.appointmentCreated) },
    { accessor: 'dateOfViewing', title: t('viewings.ui.col.dateOfViewing'), noWrap: true, render: (r) => formatDateTime(r.dateOfViewing) },
    {
      accessor: 'lead',
      title: t('viewings.ui.col.lead'),
      render: (r) =>
        r.leadId ? (
          <Anchor component={Link} to={`/Leads/View/${r.leadId}`}>
            {r.lead}
          </Anchor>
        ) : (
          ''
        ),
    },
    { accessor: 'assigned', title: t('viewings.ui.col.assigned') },
    {
      // Each property on its line with what the client said of it: the comment's first line here
      // (all of it in its title and for screen readers, and on the viewing's page); a search's
      // words marked, the line starting near them.
      accessor: 'objects',
      title: t('viewings.ui.col.objectsComments'),
      cardLabel: t('viewings.ui.col.objectsComments'),
      render: (r) =>
        r.objectRefs.some((o) => o.comment) ? (
          <ul className="viewing-list-objects" data-testid="viewing-list-objects">
            {r.objectRefs.map((o) => (
              <li key={o.id} className="viewing-list-object" data-testid="viewing-list-object">
                <Anchor component={Link} to={`/Objects/View/${o.id}`} className="viewing-list-ref">
                  #{o.referenceNumber}
                </Anchor>
                {o.comment && (
                  <span className="viewing-list-comment" title={o.comment} data-testid="viewing-list-comment">
                    “{searched ? <Marked text={o.comment} search={searched} /> : o.comment}”
                  </span>
                )}
              </li>
            ))}
          </ul>
        ) : (
          <Group gap={6}>
            {r.objectRefs.map((o) => (
              <Anchor key={o.id} component={Link} to={`/Objects/View/${o.id}`}>
                #{o.referenceNumber}
              </Anchor>
            ))}
          </Group>
        ),
    },
    { accessor: 'result', title: t('viewings.ui.col.result'), render: (r) => r.result },
    {
      accessor: 'edit',
      title: t('viewings.ui.col.edit'),
      card: 'action',
      render: (r) => (
        <ActionIcon component={Link} to={`/Viewing/Edit/${r.id}`} variant="subtle" aria-label={t('viewings.ui.editOne', { id: r.id })}>
          <IconPencil size={16} />
        </ActionIcon>
      ),
    },
  ];
  const add = (
    <Button component={Link} to="/Viewing/Add" leftSection={<IconPlus size={16} />} data-testid="viewings-add">
      {t('viewings.ui.add')}
    </Button>
  );
  return (
    <Stack gap="md">
      <ListHeader title={t('title.viewings')} count={q.data?.totalRows} testId="viewings">
        <Button component={Link} to="/Calendar" variant="default" leftSection={<IconCalendar size={16} />}>
          {t('viewings.ui.calendar')}
        </Button>
        {add}
      </ListHeader>
      <FilterCard active={filtered} testId="viewings-filter">
        <Grid gap="sm" align="flex-end">
          <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
            <MultiSelect
              label={t('viewings.ui.filter.results')}
              placeholder={filter.results.length ? undefined : t('leads.ui.filter.all')}
              data={(q.data?.options.results ?? []).map((o) => ({ value: String(o.value), label: o.text }))}
              value={filter.results.map(String)}
              onChange={(v) => change({ results: v.map(Number) })}
              clearable
              data-testid="viewings-filter-results"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 3, lg: 2 }}>
            <DateField label={t('viewings.ui.filter.createdFrom')} value={filter.appointmentCreatedFrom} onChange={(v) => change({ appointmentCreatedFrom: v })} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 3, lg: 2 }}>
            <DateField label={t('viewings.ui.filter.createdTill')} value={filter.appointmentCreatedTill} onChange={(v) => change({ appointmentCreatedTill: v })} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 3, lg: 2 }}>
            <DateField label={t('viewings.ui.filter.dateFrom')} value={filter.dateOfViewingFrom} onChange={(v) => change({ dateOfViewingFrom: v })} data-testid="viewings-filter-from" />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 3, lg: 2 }}>
            <DateField label={t('viewings.ui.filter.dateTill')} value={filter.dateOfViewingTill} onChange={(v) => change({ dateOfViewingTill: v })} data-testid="viewings-filter-till" />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <SearchPicker
              label={t('viewings.ui.filter.lead')}
              value={filter.demandId ? { id: filter.demandId, text: filter.demandText } : null}
              onChange={(v) => change({ demandId: v?.id ?? null, demandText: v?.text ?? '' })}
              search={searchLeadsQuick}
              queryKey="lead"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 2 }}>
            <SearchPicker
              label={t('viewings.ui.filter.object')}
              value={filter.objectId ? { id: filter.objectId, text: filter.objectText } : null}
              onChange={(v) => change({ objectId: v?.id ?? null, objectText: v?.text ?? '' })}
              search={searchObjectsByRef}
              queryKey="object"
              testId="viewings-filter-object"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 2 }}>
            <SearchPicker
              label={t('viewings.ui.filter.assigned')}
              value={filter.assigned ? { id: filter.assigned, text: filter.assignedText } : null}
              onChange={(v) => change({ assigned: v?.id ?? null, assignedText: v?.text ?? '' })}
              search={searchEmployees}
              queryKey="employee"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 2 }}>
            <TextInput
              label={t('viewings.ui.filter.comment')}
              placeholder={t('viewings.ui.filter.commentPlaceholder')}
              value={filter.comment}
              onChange={(e) => change({ comment: e.currentTarget.value })}
              maxLength={VIEWING_COMMENT_SEARCH_MAX}
              leftSection={<IconSearch size={16} />}
              data-testid="viewings-filter-comment"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 'content' }}>
            <ClearFiltersButton fullWidth disabled={!filtered} onClear={() => change(NO_VIEWING_FILTER)} />
          </Grid.Col>
        </Grid>
      </FilterCard>
      <DataTable
        testId="viewings-table"
        list={list}
        records={q.data?.items}
        totalRows={q.data?.totalRows}
        fetching={q.isFetching}
        columns={columns}
        pageSizes={PAGE_SIZES}
        rowClassName={(r) => (r.rowClass ? `viewing-row ${r.rowClass}` : undefined)}
        empty={
          filtered
            ? { text: t('viewings.ui.noMatch'), action: <ClearFiltersButton variant="light" onClear={() => change(NO_VIEWING_FILTER)} /> }
            : { text: t('viewings.ui.empty'), action: add }
        }
      />
    </Stack>
  );
}
