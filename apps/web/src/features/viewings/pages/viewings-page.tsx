import { Anchor, Group } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import type { TViewingRow } from '@crm/contract';
import { VIEWING_COMMENT_SEARCH_MAX } from '@crm/contract/constants';
import { type DataTableColumn } from '../../../components/data-table.tsx';
import { IconCalendar } from '../icons.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { excerptParts } from '../../../lib/text-match.ts';
import { ListScreen } from '../../../kit/list-screen.tsx';
import { VIEWINGS } from '../api/viewings.ts';
import './viewings.css';
import { searchEmployees, searchLeadsQuick, searchObjectsByRef } from '../../../lib/pickers.ts';
import { LEAD, OBJECT, VIEWING, href } from '@crm/contract/resources';
import { editColumn } from '../../../kit/edit-column.tsx';

/** A comment as a search sees it: from near the first word found, the words found marked. */
function Marked({ text, search }: { text: string; search: string }) {
  return excerptParts(text, search).map((p, i) => (p.found ? <mark key={i}>{p.text}</mark> : p.text));
}

/** /Viewing: the viewings with their filters (kept in a cookie; the page goes back to 1 on a change). */
export function ViewingsPage() {
  const { t } = useTranslation();
  return (
    <ListScreen
      {...VIEWINGS}
      views={[{ to: href(VIEWING.screens.calendar), icon: IconCalendar, label: t('viewings.ui.calendar') }]}
      rowClassName={(r) => (r.rowClass ? `viewing-row ${r.rowClass}` : undefined)}
      fields={({ answer }) => [
        { kind: 'multi', name: 'results', label: t('viewings.ui.filter.results'), options: answer?.options.results, allLabel: t('leads.ui.filter.all'), span: { base: 12, sm: 6, lg: 4 } },
        { kind: 'date', name: 'appointmentCreatedFrom', label: t('viewings.ui.filter.createdFrom') },
        { kind: 'date', name: 'appointmentCreatedTill', label: t('viewings.ui.filter.createdTill') },
        { kind: 'date', name: 'dateOfViewingFrom', label: t('viewings.ui.filter.dateFrom'), testId: 'viewings-filter-from' },
        { kind: 'date', name: 'dateOfViewingTill', label: t('viewings.ui.filter.dateTill'), testId: 'viewings-filter-till' },
        { kind: 'picker', name: 'demandId', textName: 'demandText', label: t('viewings.ui.filter.lead'), search: searchLeadsQuick, queryKey: 'lead', span: { base: 12, sm: 6, lg: 3 } },
        { kind: 'picker', name: 'objectId', textName: 'objectText', label: t('viewings.ui.filter.object'), search: searchObjectsByRef, queryKey: 'object', testId: 'viewings-filter-object' },
        { kind: 'picker', name: 'assigned', textName: 'assignedText', label: t('viewings.ui.filter.assigned'), search: searchEmployees, queryKey: 'employee' },
        { kind: 'text', name: 'comment', label: t('viewings.ui.filter.comment'), placeholder: t('viewings.ui.filter.commentPlaceholder'), maxLength: VIEWING_COMMENT_SEARCH_MAX, search: true },
      ]}
      columns={({ filter }) => viewingColumns(t, filter.comment.trim())}
    />
  );
}

/** The list's columns; a comment search's words marked in the comments. */
function viewingColumns(t: TFunction, searched: string): DataTableColumn<TViewingRow>[] {
  return [
    {
      accessor: 'id',
      title: '#',
      noWrap: true,
      render: (r) => (
        <Anchor component={Link} to={href(VIEWING.screens.view, { id: r.id })} data-testid="viewing-link">
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
          <Anchor component={Link} to={href(LEAD.screens.view, { id: r.leadId })}>
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
                <Anchor component={Link} to={href(OBJECT.screens.view, { id: o.id })} className="viewing-list-ref">
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
              <Anchor key={o.id} component={Link} to={href(OBJECT.screens.view, { id: o.id })}>
                #{o.referenceNumber}
              </Anchor>
            ))}
          </Group>
        ),
    },
    { accessor: 'result', title: t('viewings.ui.col.result'), render: (r) => r.result },
    editColumn(t('viewings.ui.col.edit'), (r) => href(VIEWING.screens.edit, { id: r.id }), (r) => t('viewings.ui.editOne', { id: r.id })),
  ];
}
