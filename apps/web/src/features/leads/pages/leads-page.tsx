import { Badge } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TLeadRow } from '@crm/contract';
import { LEAD_FIELDS } from '@crm/contract/lead-fields';
import { formatFieldValue } from '../../../components/fields/field-values.ts';
import type { DataTableColumn } from '../../../components/data-table.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { searchEmployees } from '../../../lib/pickers.ts';
import { ListScreen } from '../../../kit/list-screen.tsx';
import { moreColumn } from '../../../kit/more-columns.ts';
import { linkColumn } from '../../../kit/link-column.tsx';
import { LEADS, downloadLeads } from '../api/leads.ts';
import { LEAD, href } from '@crm/contract/resources';

/** The stages of a closed lead (won, lost): their badge is grey. */
const CLOSED = new Set([6, 7]);

/** /Leads: the client demands, filtered as the spec lists; filters and page kept in cookies. */
export function LeadsPage() {
  const { t } = useTranslation();
  const all = t('leads.ui.filter.all');
  return (
    <ListScreen
      {...LEADS}
      download={{ label: t('leads.ui.download'), testId: 'leads-download', run: (filter, page) => downloadLeads(filter, { sortBy: page.sortBy, sortDir: page.sortDir }) }}
      fields={({ answer }) => [
        { kind: 'select', name: 'service', label: t('leads.ui.filter.service'), options: answer?.options.serviceList, numeric: true },
        { kind: 'multi', name: 'sources', label: t('leads.ui.filter.sources'), options: answer?.options.sourceList, allLabel: all, searchable: true },
        { kind: 'multi', name: 'stages', label: t('leads.ui.filter.stages'), options: answer?.options.stageList, allLabel: all },
        { kind: 'picker', name: 'agentId', textName: 'agentText', label: t('leads.ui.filter.agent'), search: searchEmployees, queryKey: 'employee', testId: 'leads-filter-agent' },
        { kind: 'multi', name: 'priorities', label: t('leads.ui.filter.priorities'), options: answer?.options.priorityList, allLabel: all, span: { base: 12, sm: 6, lg: 2 } },
        { kind: 'date', name: 'startDate', label: t('leads.ui.filter.startDate'), testId: 'leads-filter-start', span: { base: 6, lg: 2 } },
        { kind: 'date', name: 'endDate', label: t('leads.ui.filter.endDate'), testId: 'leads-filter-end', span: { base: 6, lg: 2 } },
        { kind: 'decimal', name: 'budgetRangeMin', label: t('leads.ui.filter.budgetMin'), unit: '€', testId: 'leads-filter-budget-min' },
        { kind: 'decimal', name: 'budgetRangeMax', label: t('leads.ui.filter.budgetMax'), unit: '€', testId: 'leads-filter-budget-max' },
        { kind: 'text', name: 'lastName', label: t('leads.ui.filter.lastName'), testId: 'leads-filter-lastname', span: { base: 12, sm: 8, lg: 'auto' } },
      ]}
      more={{ label: (key) => t(`fields.lead.${key}`), column: (key) => leadMoreColumn(t, key) }}
      columns={({ answer }) => {
        const stageText = new Map((answer?.options.stageList ?? []).map((o) => [Number(o.value), o.text]));
        const priorityText = new Map((answer?.options.priorityList ?? []).map((o) => [Number(o.value), o.text]));
        return [
          { accessor: 'createdOn', title: t('leads.ui.col.created'), sortable: true, noWrap: true, render: (r) => formatDateTime(r.createdOn) },
          linkColumn('name', t('leads.ui.col.name'), (r) => href(LEAD.screens.view, { id: r.id }), (r) => r.name, 'lead-link'),
          { accessor: 'type', title: t('leads.ui.col.type'), render: (r) => t(`leads.type.${r.type}`) },
          { accessor: 'budgetRange', title: t('leads.ui.col.budget'), noWrap: true, render: (r) => r.budgetRange },
          {
            accessor: 'stage',
            title: t('leads.ui.col.stage'),
            sortable: true,
            render: (r) =>
              r.stage == null ? '' : (
                <Badge variant="light" color={CLOSED.has(r.stage) ? 'gray' : 'blue'}>
                  {stageText.get(r.stage) ?? r.stage}
                </Badge>
              ),
          },
          { accessor: 'priority', title: t('leads.ui.col.priority'), sortable: true, render: (r) => (r.priority == null ? '' : (priorityText.get(r.priority) ?? r.priority)) },
        ];
      }}
    />
  );
}

/** A further column of the list (LEAD_MORE_COLUMNS): the field's value as the lead's view writes it; a list-valued one comes named by the server. */
function leadMoreColumn(t: TFunction, key: string): DataTableColumn<TLeadRow> {
  const d = LEAD_FIELDS.find((x) => x.name === key)!;
  const named = d.type === 'select' || d.type === 'location' || d.type === 'multi-select' || d.type === 'flag-enum';
  return moreColumn(d, t(`fields.lead.${key}`), (v) => (named ? (v == null ? '' : String(v)) : formatFieldValue(d.type, v, t)));
}
