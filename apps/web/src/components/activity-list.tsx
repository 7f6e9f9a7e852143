import { ActionIcon, Badge, Button, SegmentedControl, Select, TextInput, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, memo, useDeferredValue, useEffect, useState, type CSSProperties, type Dispatch, type SetStateAction } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { LIST_PAGE_SIZES, MAIL_PAGE_MAX, SEARCH_DEBOUNCE_MS, SHOW_ALL, TIMELINE_KINDS, type TTimelineKind } from '@crm/contract/constants';
import type { TActivity, TMailRow } from '@crm/contract';
import { MAIL } from '@crm/contract/resources';
import { call } from '../lib/api.ts';
import { formatDateTime } from '../lib/format.ts';
import { useCookieState } from '../lib/list-state.ts';
import { IconFile, IconMail, IconPencil, IconPlus } from './icons.ts';
import { MailMessage, who } from './record-mail.tsx';
import { MailCompose, recordQuery, type TMailRecord } from './mail-compose.tsx';
import { FilteredListCard } from './filtered-list-card.tsx';
import { ActivityEditor, unsavedActivity } from './activities/activity-editor.tsx';
import { activityKeys, fetchActivities, type TActivityDoneFilter } from './activities/api.ts';
import { RecordLinks, StateIcon, stateOf, useBackToLastPage } from './activities/shared.tsx';
import { useSectionReady } from './reveal.tsx';
import { TIMELINE_TITLE, useTimelineKind } from './timeline-kind.ts';
import './table.css';

const LINES_4 = { '--lines': 4 } as CSSProperties;
const LINES_2 = { '--lines': 2 } as CSSProperties;

const ROW_STYLE = {
  todo: { backgroundColor: 'var(--mantine-color-red-0)' },
  complete: { backgroundColor: 'var(--mantine-color-green-0)' },
  none: undefined,
} as const;

/** A row of the list: an activity, or (in a record's timeline) a mail of its thread. */
type Entry = { kind: 'activity'; activity: TActivity } | { kind: 'mail'; mail: TMailRow };

/** No rows yet (one array, so that the drawn rows stay the same until some arrive). */
const NO_ENTRIES: Entry[] = [];

/** The page sizes offered with mail shown: a page of mail holds at most MAIL_PAGE_MAX ("Show all" is the activities'). */
const MAIL_PAGE_SIZES = LIST_PAGE_SIZES.filter((n) => n <= MAIL_PAGE_MAX);

/** What a record's mail alone says when it has none (as its thread did). */
const MAIL_EMPTY = { accountId: 'mailbox.list.empty', objectId: 'mailbox.list.emptyObject', leadId: 'mailbox.list.emptyLead', dealId: 'mailbox.list.emptyDeal' } as const;

/**
 * The activities of a record (account, lead, object, viewing ...): count badge, a collapsible
 * filter card (state, text), the table with linked records as links, and, when `editable`, adding
 * and inline editing (one activity at a time; the other rows' edit buttons hide meanwhile).
 * Given `mail` (an account's, a property's, a lead's or a deal's), it is the record's timeline
 * (issue 46): its activities and the mail of its thread together, newest first, or either alone
 * (kept in a cookie); a mail row opens the message (reply, attachments saved to the files), and a
 * new e-mail is written from here. The state filter is the activities' alone (mail has no state):
 * offered with them only, and set back to all when the mail is shown. With mail shown a page holds
 * at most MAIL_PAGE_MAX rows: a larger size kept from the activities is shown as the largest offered.
 */
export function ActivityList({ entityType, id, editable = false, mail }: { entityType: number; id: number; editable?: boolean; mail?: TMailRecord }) {
  const { t } = useTranslation();
  const [keptPerPage, setPerPage] = useCookieState<number>('ActivityList.perPage', 20);
  const [kind, setKind] = useTimelineKind(!!mail);
  const withMail = kind !== 'activities';
  const pageSizes = withMail ? MAIL_PAGE_SIZES : LIST_PAGE_SIZES;
  const perPage = withMail && keptPerPage > MAIL_PAGE_MAX ? Math.max(...pageSizes) : keptPerPage;
  const [page, setPage] = useState(1);
  const [done, setDone] = useState<TActivityDoneFilter>('all');
  // Another kind shown (chosen, or the record's mail given or taken away): from its first page; and a
  // state asked of the activities, which would leave all mail out, is not kept with the mail shown.
  const [shownKind, setShownKind] = useState(kind);
  if (shownKind !== kind) {
    setShownKind(kind);
    setPage(1);
    if (kind !== 'activities') setDone('all');
  }
  const [text, setText] = useState('');
  const [debouncedText] = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const [editing, setEditing] = useState<{ activity: TActivity; isNew: boolean } | null>(null);
  const [openMail, setOpenMail] = useState<number | null>(null);
  const [composing, setComposing] = useState(false);
  const mailOf = mail && recordQuery(mail);
  const doneFilter = kind === 'activities' ? done : 'all';
  const filterActive = doneFilter !== 'all' || text.trim() !== '';
  // Another record in the same screen (the route's id changed): start afresh.
  useEffect(() => {
    setEditing(null);
    setPage(1);
  }, [entityType, id]);

  const list = useQuery({
    queryKey: [...activityKeys.list(entityType, id), { perPage, page, done: doneFilter, text: debouncedText, kind, mail: mailOf }],
    queryFn: async ({ signal }): Promise<{ items: Entry[]; totalRows: number }> => {
      if (kind === 'activities') {
        const r = await fetchActivities({ parent: entityType, parentId: id, done: doneFilter, text: debouncedText, perPage, currentPage: page }, signal);
        return { items: r.items.map((activity) => ({ kind: 'activity', activity })), totalRows: r.totalRows };
      }
      return call(MAIL.calls.timeline, { query: { ...mailOf, kind, done: doneFilter, text: debouncedText, perPage, currentPage: page } }, { signal });
    },
    placeholderData: keepPreviousData,
    enabled: id > 0,
  });
  const answered = list.data?.items ?? NO_ENTRIES;
  // The rows are drawn at low priority, in slices: the query's answer arrives as an urgent update,
  // and a page of rows drawn at once blocked a phone for over 100 ms as a record opened. Until they
  // are drawn, the section says it is not ready and shows "Loading" (not "no activities").
  const items = useDeferredValue(answered);
  const drawing = items !== answered;
  useSectionReady('activities', (!list.isPending || list.fetchStatus === 'idle') && !drawing);
  const total = list.data?.totalRows ?? 0;
  useBackToLastPage(page, perPage, list.isPlaceholderData ? undefined : list.data?.totalRows, setPage);
  const filter = (d: TActivityDoneFilter, s: string) => {
    setDone(d);
    setText(s);
    setPage(1);
  };

  // "New activity" opens the editor on an activity not stored yet: the editor stores it at its first
  // save with something in it, so that opening it and leaving (or reloading) leaves nothing behind.
  const add = () => {
    // Shown first: first page, no filter that would hide a new activity (and the activities shown).
    filter('all', '');
    if (kind === 'mail') setKind('all');
    setEditing({ activity: unsavedActivity(entityType, id), isNew: true });
  };
  // One flat, keyed list of rows, so that the editor keeps its state when the list reloads and
  // a new activity's row turns up from the server.
  const rows: Entry[] = editing && !items.some((e) => e.kind === 'activity' && e.activity.id === editing.activity.id) ? [{ kind: 'activity', activity: editing.activity }, ...items] : items;
  const title = t(TIMELINE_TITLE[kind]);
  const empty =
    rows.length > 0
      ? null
      : list.isPending || drawing
        ? t('common.loading')
        : kind === 'mail' && mailOf
          ? t(filterActive ? 'activities.timeline.emptyMailFiltered' : MAIL_EMPTY[Object.keys(mailOf)[0] as keyof typeof MAIL_EMPTY])
          : filterActive
            ? t(kind === 'all' ? 'activities.timeline.emptyFiltered' : 'activities.emptyFiltered')
            : // Nothing at all with the activities shown: the activity list's own words (the spec's), with the way to add one.
              editable
              ? t('activities.empty')
              : t('activities.emptyReadOnly');

  return (
    <>
      <FilteredListCard
        cardTestId="activity-list"
        testId="activity"
        title={title}
        total={total}
        filtered={filterActive}
        onClear={() => filter('all', '')}
        filtersTestId="activity-filters"
        filters={() => <ActivityFilterFields kind={kind} done={done} text={text} filter={filter} />}
        buttons={
          (editable || mail) && (
            <>
              {mail && (
                <SegmentedControl
                  value={kind}
                  onChange={(v) => setKind(v as TTimelineKind)}
                  data={TIMELINE_KINDS.map((k) => ({ value: k, label: t(`activities.timeline.kind.${k}`) }))}
                  aria-label={t('activities.timeline.show')}
                  data-testid="timeline-kind"
                />
              )}
              {editable && (
                <Button leftSection={<IconPlus size={16} />} onClick={add} disabled={!!editing} data-testid="activity-add">
                  {t('activities.add')}
                </Button>
              )}
              {mail && (
                <Button variant="light" leftSection={<IconMail size={16} />} onClick={() => setComposing(true)} data-testid="mail-new">
                  {t('mailbox.newMail')}
                </Button>
              )}
            </>
          )
        }
        emptyText={empty}
        pager={{
          perPage,
          page,
          pageSizes: pageSizes.map((n) => ({ value: String(n), label: n === SHOW_ALL ? t('activities.showAll') : String(n) })),
          onPerPage: (n) => {
            setPerPage(n);
            setPage(1);
          },
          onPage: setPage,
        }}
      >
        <ActivityTable rows={rows} editing={editing} setEditing={setEditing} editable={editable} onOpenMail={setOpenMail} />
      </FilteredListCard>
      {openMail !== null && mailOf && <MailMessage id={openMail} of={mailOf} onClose={() => setOpenMail(null)} />}
      {composing && mailOf && <MailCompose of={mailOf} onClose={() => setComposing(false)} />}
    </>
  );
}

/** The timeline's filter fields: the activities' state (with them alone shown) and the text. */
function ActivityFilterFields({ kind, done, text, filter }: { kind: TTimelineKind; done: TActivityDoneFilter; text: string; filter: (d: TActivityDoneFilter, s: string) => void }) {
  const { t } = useTranslation();
  return (
    <>
      {kind === 'activities' && (
        <Select
          label={t('activities.filter.done')}
          w={220}
          allowDeselect={false}
          value={done}
          onChange={(v) => filter((v ?? 'all') as TActivityDoneFilter, text)}
          data={(['all', 'none', 'todo', 'completed'] as const).map((v) => ({ value: v, label: t(`activities.doneFilter.${v}`) }))}
          data-testid="activity-filter-done"
        />
      )}
      <TextInput
        label={t('activities.filter.text')}
        placeholder={kind === 'activities' ? t('activities.filter.textPlaceholder') : t('activities.timeline.textPlaceholder')}
        value={text}
        onChange={(e) => filter(done, e.currentTarget.value)}
        w={280}
        data-testid="activity-filter-text"
      />
    </>
  );
}

type Editing = { activity: TActivity; isNew: boolean } | null;

/**
 * The activities' table (a timeline's mail among them); the one being edited has its editor in a row
 * below it. Memoised: the list's urgent updates (an answer arriving, typing in the filter) do not
 * draw the rows again until the deferred rows change.
 */
const ActivityTable = memo(function ActivityTable({
  rows,
  editing,
  setEditing,
  editable,
  onOpenMail,
}: {
  rows: Entry[];
  editing: Editing;
  setEditing: Dispatch<SetStateAction<Editing>>;
  editable: boolean;
  onOpenMail: (id: number) => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const editorRow = editing && (
    <tr className="activity-editor-row">
      <td colSpan={9}>
        <ActivityEditor
          // A new activity keeps its editor (and what is being typed) when it is stored and gets its id.
          key={editing.isNew ? 'new' : editing.activity.id}
          activity={editing.activity}
          isNew={editing.isNew}
          onCreated={(a) => setEditing((e) => (e?.isNew ? { ...e, activity: a } : e))}
          onClose={() => {
            setEditing(null);
            void qc.invalidateQueries({ queryKey: activityKeys.all });
          }}
        />
      </td>
    </tr>
  );
  return (
    <div className="crm-table-x">
      <table className="crm-table activity-table" data-testid="activity-table">
        <thead>
          <tr>
            <th style={{ width: 32 }}><VisuallyHidden>{t('activities.col.state')}</VisuallyHidden></th>
            {(['activities.col.createdOn', 'activities.col.createdBy', 'activities.col.assigned', 'activities.col.createdAt', 'activities.col.plannedOn', 'activities.col.completedOn', 'activities.col.description'] as const).map((k) => (
              <th key={k}>{t(k)}</th>
            ))}
            <th style={{ width: 48 }}><VisuallyHidden>{t('activities.edit')}</VisuallyHidden></th>
          </tr>
        </thead>
        <tbody>
          {rows.map((e) => {
            if (e.kind === 'mail') return <MailTimelineRow key={`mail-${e.mail.id}`} m={e.mail} onOpen={() => onOpenMail(e.mail.id)} />;
            const a = e.activity;
            const isEditing = editing?.activity.id === a.id;
            return (
              // The new activity's row keeps its key when it is stored (id 0, then its own).
              <Fragment key={isEditing && editing.isNew ? 'new' : a.id}>
                <ActivityRow a={a} isEditing={isEditing} canEdit={editable && (!editing || isEditing)} onEdit={() => setEditing(isEditing ? editing : { activity: a, isNew: false })} />
                {isEditing && editorRow}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
});

function ActivityRow({ a, isEditing, canEdit, onEdit }: { a: TActivity; isEditing: boolean; canEdit: boolean; onEdit: () => void }) {
  const { t } = useTranslation();
  const state = stateOf(a.done);
  return (
    <tr style={ROW_STYLE[state]} data-testid="activity-row" data-activity-id={a.id} data-state={state}>
      <td className="activity-state-cell"><StateIcon done={a.done} /></td>
      <td className="nowrap" data-label={t('activities.col.createdOn')}><When value={a.createdOn} /></td>
      <td data-label={t('activities.col.createdBy')}>{a.createdBy}</td>
      <td data-testid="activity-assigned" data-label={t('activities.col.assigned')}>{a.assignedTo?.description}</td>
      <td data-label={t('activities.col.createdAt')}>{a.id > 0 && <RecordLinks links={a.links} />}</td>
      <td className="nowrap" data-label={t('activities.col.plannedOn')}><When value={a.date} /></td>
      <td className="nowrap" data-testid="activity-done-on" data-label={t('activities.col.completedOn')}><When value={a.doneDate} /></td>
      <td className="activity-text-cell">
        {a.category > 0 && (
          <Badge variant="light" color="gray" size="sm" radius="sm" mb={4} className="activity-category" data-testid="activity-category-badge">{t(`activities.category.${a.category}`)}</Badge>
        )}
        <div className={state === 'complete' ? 'pre-line line-clamp dimmed' : 'pre-line line-clamp'} style={LINES_4} data-testid="activity-text">{a.description}</div>
      </td>
      <td className="activity-edit-cell">
        {canEdit && (
          <ActionIcon variant={isEditing ? 'filled' : 'subtle'} onClick={onEdit} aria-label={t('activities.edit')} title={t('activities.edit')} data-testid="activity-edit">
            <IconPencil size={16} />
          </ActionIcon>
        )}
      </td>
    </tr>
  );
}

/** A date-time of a row, kept in one piece (none: an empty cell, which a phone's card leaves out). */
function When({ value }: { value: string | null }) {
  return value ? (
    <span className="activity-when" data-testid="activity-when">{formatDateTime(value)}</span>
  ) : null;
}

/**
 * A mail of the record's thread among its activities: an envelope where an activity shows its state,
 * its date, sender and mailbox, its subject (opens the message) with its first words and a mark when
 * it has attachments. The whole row opens it too.
 */
function MailTimelineRow({ m, onOpen }: { m: TMailRow; onOpen: () => void }) {
  const { t } = useTranslation();
  const subject = m.subject || t('mailbox.msg.noSubject');
  return (
    <tr data-testid="mail-row" data-mail-id={m.id} className="timeline-mail-row" onClick={onOpen}>
      <td className="activity-state-cell">
        <span className="state-icon" data-state="mail" title={t('activities.timeline.mail')}>
          <IconMail size={16} aria-label={t('activities.timeline.mail')} />
        </span>
      </td>
      <td className="nowrap" data-label={t('mailbox.msg.date')}><When value={m.date} /></td>
      {/* Under "Created by" and "Assigned to" a mail has neither: its sender and mailbox, in one cell, each named. */}
      <td colSpan={2} className="timeline-mail-who">
        <div data-testid="mail-row-from">
          <span className="timeline-mail-label">{t('mailbox.msg.from')}: </span>
          {who(m.from)}
        </div>
        <div data-testid="mail-row-mailbox">
          <span className="timeline-mail-label">{t('activities.timeline.mailbox')}: </span>
          {m.mailbox}
        </div>
      </td>
      <td />
      <td />
      <td />
      <td className="activity-text-cell">
        <UnstyledButton
          onClick={(ev) => {
            ev.stopPropagation();
            onOpen();
          }}
          className="timeline-mail-subject"
          data-testid="mail-row-open"
        >
          {subject}
        </UnstyledButton>
        {m.attachments.length > 0 && <IconFile size={14} aria-label={t('mailbox.msg.attachments')} role="img" className="timeline-mail-attachment" data-testid="mail-row-attachment" />}
        <div className="pre-line line-clamp dimmed" style={LINES_2} data-testid="mail-row-snippet">{m.snippet}</div>
      </td>
      <td className="activity-edit-cell" />
    </tr>
  );
}
