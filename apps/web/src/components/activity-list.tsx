import { ActionIcon, Badge, Button, Select, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useEffect, useState, type CSSProperties, type Dispatch, type SetStateAction } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { LIST_PAGE_SIZES, SEARCH_DEBOUNCE_MS, SHOW_ALL } from '@crm/contract/constants';
import type { TActivity } from '@crm/contract';
import { formatDateTime } from '../lib/format.ts';
import { useCookieState } from '../lib/list-state.ts';
import { IconPencil, IconPlus } from './icons.ts';
import { FilteredListCard } from './filtered-list-card.tsx';
import { ActivityEditor, unsavedActivity } from './activities/activity-editor.tsx';
import { activityKeys, fetchActivities, type TActivityDoneFilter } from './activities/api.ts';
import { RecordLinks, StateIcon, stateOf, useBackToLastPage } from './activities/shared.tsx';
import { useSectionReady } from './reveal.tsx';
import './table.css';

const LINES_4 = { '--lines': 4 } as CSSProperties;

const ROW_STYLE = {
  todo: { backgroundColor: 'var(--mantine-color-red-0)' },
  complete: { backgroundColor: 'var(--mantine-color-green-0)' },
  none: undefined,
} as const;

/**
 * The activities of a record (account, lead, object, viewing ...): count badge, a collapsible
 * filter card (state, text), the table with linked records as links, and, when `editable`, adding
 * and inline editing (one activity at a time; the other rows' edit buttons hide meanwhile).
 */
export function ActivityList({ entityType, id, editable = false }: { entityType: number; id: number; editable?: boolean }) {
  const { t } = useTranslation();
  const [perPage, setPerPage] = useCookieState<number>('ActivityList.perPage', 20);
  const [page, setPage] = useState(1);
  const [done, setDone] = useState<TActivityDoneFilter>('all');
  const [text, setText] = useState('');
  const [debouncedText] = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const [editing, setEditing] = useState<{ activity: TActivity; isNew: boolean } | null>(null);
  const filterActive = done !== 'all' || text.trim() !== '';
  // Another record in the same screen (the route's id changed): start afresh.
  useEffect(() => {
    setEditing(null);
    setPage(1);
  }, [entityType, id]);

  const list = useQuery({
    queryKey: [...activityKeys.list(entityType, id), { perPage, page, done, text: debouncedText }],
    queryFn: ({ signal }) => fetchActivities({ parent: entityType, parentId: id, done, text: debouncedText, perPage, currentPage: page }, signal),
    placeholderData: keepPreviousData,
    enabled: id > 0,
  });
  const items = list.data?.items ?? [];
  useSectionReady('activities', !list.isPending || list.fetchStatus === 'idle');
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
    // Shown first: first page, no filter that would hide a new activity.
    filter('all', '');
    setEditing({ activity: unsavedActivity(entityType, id), isNew: true });
  };
  // One flat, keyed list of rows, so that the editor keeps its state when the list reloads and
  // a new activity's row turns up from the server.
  const rows = editing && !items.some((a) => a.id === editing.activity.id) ? [editing.activity, ...items] : items;

  return (
    <FilteredListCard
      cardTestId="activity-list"
      testId="activity"
      title={t('activities.title')}
      total={total}
      filtered={filterActive}
      onClear={() => filter('all', '')}
      filtersTestId="activity-filters"
      filters={() => (
        <>
          <Select
            label={t('activities.filter.done')}
            w={220}
            allowDeselect={false}
            value={done}
            onChange={(v) => filter((v ?? 'all') as TActivityDoneFilter, text)}
            data={(['all', 'none', 'todo', 'completed'] as const).map((v) => ({ value: v, label: t(`activities.doneFilter.${v}`) }))}
            data-testid="activity-filter-done"
          />
          <TextInput
            label={t('activities.filter.text')}
            placeholder={t('activities.filter.textPlaceholder')}
            value={text}
            onChange={(e) => filter(done, e.currentTarget.value)}
            w={280}
            data-testid="activity-filter-text"
          />
        </>
      )}
      buttons={
        editable && (
          <Button leftSection={<IconPlus size={16} />} onClick={add} disabled={!!editing} data-testid="activity-add">
            {t('activities.add')}
          </Button>
        )
      }
      emptyText={rows.length > 0 ? null : list.isPending ? t('common.loading') : filterActive ? t('activities.emptyFiltered') : editable ? t('activities.empty') : t('activities.emptyReadOnly')}
      pager={{
        perPage,
        page,
        pageSizes: LIST_PAGE_SIZES.map((n) => ({ value: String(n), label: n === SHOW_ALL ? t('activities.showAll') : String(n) })),
        onPerPage: (n) => {
          setPerPage(n);
          setPage(1);
        },
        onPage: setPage,
      }}
    >
      <ActivityTable rows={rows} editing={editing} setEditing={setEditing} editable={editable} />
    </FilteredListCard>
  );
}

type Editing = { activity: TActivity; isNew: boolean } | null;

/** The activities' table; the one being edited has its editor in a row below it. */
function ActivityTable({ rows, editing, setEditing, editable }: { rows: TActivity[]; editing: Editing; setEditing: Dispatch<SetStateAction<Editing>>; editable: boolean }) {
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
          {rows.map((a) => {
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
}

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
