import { ActionIcon, Alert, Button, Group, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { modals } from '@mantine/modals';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pickerLocale } from '../../lib/i18n.ts';
import { dateTimeInputFormat } from '../../lib/format.ts';
import { markAgencyToday } from '../fields/agency-today.ts';
import type { TActivity, TActivityAdd } from '@crm/contract';
import { ApiError } from '../../lib/api.ts';
import { showBanner } from '../../lib/banner.ts';
import { bodyChangeKey, useChangeKeys } from '../../lib/change-key.ts';
import { describeError, reportError } from '../../lib/errors.ts';
import { useAutosave } from '../../lib/use-autosave.ts';
import { InvalidEntries, InvalidEntryScopeProvider, useAnyInvalidEntry } from '../fields/invalid-entry.ts';
import { IconCircleCheck, IconLink, IconTrash, IconX } from '../icons.ts';
import { RecordFiles } from '../record-files.tsx';
import { activityKeys, addActivity, deleteActivity, fetchActivity, updateActivity } from './api.ts';
import { SearchPicker } from './search-picker.tsx';
import { RecordLink, fromPickerValue, linkKindOfHit, stateOf, toPickerValue, type TActivityLinkView } from './shared.tsx';
import { mergeOnConflict, withYours } from '../../lib/conflict-merge.ts';
import { useMedia } from '../../lib/first-paint.ts';

const ACTIVITY_FILES = 3; // LinkKind.Activity: files of an activity

type Form = {
  description: string;
  done: boolean | null;
  category: number;
  date: string | null;
  doneDate: string | null;
  assignedTo: { id: number; description: string } | null;
  links: TActivityLinkView[];
};

const formOf = (a: TActivity): Form => ({
  description: a.description ?? '',
  done: a.done,
  category: a.category,
  date: a.date,
  doneDate: a.doneDate,
  assignedTo: a.assignedTo,
  links: a.links,
});

/** The activity's fields as the API takes them. */
const wireOf = (f: Form) => ({
  description: f.description.trim() ? f.description : null,
  done: f.done,
  category: f.category,
  date: f.date,
  doneDate: f.doneDate,
  assignedTo: f.assignedTo ? f.assignedTo.id : null,
  links: f.links.map((l) => ({ entity: l.entity, id: l.id })),
});

const isBlank = (f: Form) => !f.description.trim() && f.done === null && f.category === 0 && !f.date && !f.doneDate && !f.assignedTo && f.links.length <= 1;

/**
 * A new activity of a record, not stored yet (id 0): what "New activity" opens. Its one link is the
 * record (its text comes with the stored activity).
 */
export const unsavedActivity = (entityType: number, id: number): TActivity => ({
  id: 0,
  description: null,
  done: null,
  category: 0,
  date: null,
  doneDate: null,
  createdOn: '',
  createdBy: null,
  createdById: null,
  assignedTo: null,
  links: [{ entity: entityType, id, description: '' }],
  files: [],
  modifiedOn: '',
  version: 0,
});

/**
 * The inline activity editor: every change is saved about 400 ms later (one save at a time, the
 * version kept in a ref). A 409 tells the user and loads the current activity; "Save and close"
 * saves what is pending and closes. A new activity (unsavedActivity) is stored at its first save
 * with something in it, so that opening it and leaving stores nothing (`onCreated` tells its id);
 * one emptied again is removed on close.
 */
export function ActivityEditor({ activity, isNew, onClose, onCreated }: { activity: TActivity; isNew: boolean; onClose: () => void; onCreated?: (a: TActivity) => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  // 0 until a new activity is stored; the saves read the ref, the screen the state.
  const [id, setId] = useState(activity.id);
  const idRef = useRef(activity.id);
  /** The links as stored, with their records' names (a new activity's own record is named once it is stored). */
  const [storedLinks, setStoredLinks] = useState(activity.links);
  const [form, setForm] = useState<Form>(() => formOf(activity));
  // The form as it is now (typing goes on while a save is on its way): what a 409 merges.
  const formNow = useRef(form);
  formNow.current = form;
  const version = useRef(activity.version);
  /** The last state the server confirmed, to undo a refused link change. */
  const saved = useRef<Form>(formOf(activity));
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [closing, setClosing] = useState(false);
  // The save that puts a refused link back must not wipe the message explaining the refusal.
  const keepErrorOnce = useRef(false);

  /** What the last save that got no answer carried (stored perhaps): a 409 of exactly that is this user's own. */
  const unconfirmed = useRef<ReturnType<typeof wireOf> | null>(null);

  // Storing a new activity: one add at a time (a save and a dropped file wait for the same one); an
  // add whose answer was lost is sent again as it was, with its key, so it is never stored twice.
  const changeKeys = useChangeKeys();
  const adding = useRef<Promise<TActivity> | null>(null);
  const addSent = useRef<{ body: TActivityAdd; key: string } | null>(null);
  const add = (f: Form): Promise<TActivity> =>
    (adding.current ??= (async () => {
      try {
        const own = activity.links[0]!;
        if (!addSent.current) {
          const body: TActivityAdd = { entityType: own.entity, id: own.id, ...wireOf(f) };
          addSent.current = { body, key: changeKeys.keyFor(body) };
        }
        let res: TActivity;
        try {
          res = await addActivity(addSent.current.body, addSent.current.key);
        } catch (e) {
          // Refused (not stored): the next try is another add. No answer: the same one again.
          if (!(e instanceof ApiError && e.status === 0)) addSent.current = null;
          throw e;
        }
        addSent.current = null;
        idRef.current = res.id;
        version.current = res.version;
        saved.current = formOf(res);
        setId(res.id);
        setStoredLinks(res.links);
        onCreated?.(res);
        return res;
      } finally {
        adding.current = null;
      }
    })());

  const save = useCallback(
    async (f: Form): Promise<void> => {
      if (!idRef.current) {
        // Nothing entered in a new activity: nothing is stored.
        if (isBlank(f)) return;
        try {
          const res = await add(f);
          if (keepErrorOnce.current) keepErrorOnce.current = false;
          else {
            setError(null);
            setFieldErrors({});
          }
          setForm((cur) => (cur.doneDate === f.doneDate && res.doneDate !== f.doneDate ? { ...cur, doneDate: res.doneDate } : cur));
          void qc.invalidateQueries({ queryKey: activityKeys.all });
          // Stored as typed: done. Otherwise (an add sent again as it first was) the rest is saved on it below.
          if (JSON.stringify(wireOf(formOf(res))) === JSON.stringify(wireOf(f))) return;
        } catch (e) {
          if (e instanceof ApiError && e.status === 400) {
            setFieldErrors(e.fieldErrors);
            setError(describeError(e).message);
          } else if (!(e instanceof ApiError && e.status === 0)) reportError(e);
          throw e;
        }
      }
      const body = { id: idRef.current, version: version.current, ...wireOf(f) };
      try {
        const res = await updateActivity(body, bodyChangeKey(body));
        unconfirmed.current = null;
        version.current = res.version;
        saved.current = formOf(res);
        if (keepErrorOnce.current) keepErrorOnce.current = false;
        else {
          setError(null);
          setFieldErrors({});
        }
        // The server stamps the completion date when an action is marked complete without one.
        setForm((cur) => (cur.doneDate === f.doneDate && res.doneDate !== f.doneDate ? { ...cur, doneDate: res.doneDate } : cur));
        void qc.invalidateQueries({ queryKey: activityKeys.all });
      } catch (e) {
        const own = unconfirmed.current;
        unconfirmed.current = e instanceof ApiError && e.status === 0 ? { ...wireOf(f) } : null;
        if (e instanceof ApiError && e.status === 409 && own && e.problem.current && JSON.stringify(wireOf(formOf(e.problem.current as TActivity))) === JSON.stringify(own)) {
          // The newer version is this user's own save whose answer was lost: save what is typed now on it.
          version.current = (e.problem.current as TActivity).version;
          saved.current = formOf(e.problem.current as TActivity);
          return save(f);
        }
        if (e instanceof ApiError && e.status === 409) {
          // Someone else saved it first: their version is loaded, and what only this user changed
          // (typed meanwhile too) is put on it and saved; where both changed a field, theirs stays
          // and the banner says what this user had typed there.
          const current = (e.problem.current as TActivity | undefined) ?? (await fetchActivity(idRef.current));
          const theirs = formOf(current);
          const typed = formNow.current;
          const m = mergeOnConflict(saved.current, typed, theirs);
          version.current = current.version;
          saved.current = theirs;
          // The merged form is shown and is what the editor now holds (not a change of its own).
          autosave.reset(m.next);
          setForm(m.next);
          const label = (k: string) => t(`activities.field.${k}`);
          const named = m.lost.map((k) => withYours(t, label(k), typed[k as keyof Form]));
          const head = m.changed.length > m.lost.length ? t('common.conflictMerged') : e.problem.title || t('errors.conflict');
          showBanner('warning', head + (named.length ? ` ${t('common.conflictKept', { fields: named.join(', ') })}` : ''));
          // Mine on their version, saved now; with nothing of mine left, their version is all there is.
          if (m.changed.length > m.lost.length) return save(m.next);
          return;
        } else if (e instanceof ApiError && e.status === 400) {
          if (e.problem.code === 'activities.onlyLink') {
            // Put the refused link back (that change saves too; the message stays).
            keepErrorOnce.current = true;
            setForm((cur) => ({ ...cur, links: saved.current.links }));
          }
          setFieldErrors(e.fieldErrors);
          setError(describeError(e).message);
        } else {
          reportError(e);
        }
        throw e;
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [qc],
  );
  const autosave = useAutosave({ value: form, save });
  const [entries] = useState(() => new InvalidEntries());
  const narrow = useMedia('(max-width: 30em)', false);

  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));

  const confirmDeleteLink = (link: TActivityLinkView) =>
    modals.openConfirmModal({
      title: t('activities.deleteLink'),
      children: <Text size="sm">{t('activities.confirmDeleteLink')}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete-link' } as Record<string, unknown>,
      onConfirm: () => setForm((f) => ({ ...f, links: f.links.filter((l) => !(l.entity === link.entity && l.id === link.id)) })),
    });

  const remove = async () => {
    try {
      // Nothing more is saved; a new activity being stored is waited for, and then deleted.
      autosave.reset(form);
      await adding.current?.catch(() => null);
      if (idRef.current) await deleteActivity(idRef.current);
      await qc.invalidateQueries({ queryKey: activityKeys.all });
      onClose();
    } catch (e) {
      reportError(e);
    }
  };
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t('activities.delete'),
      children: <Text size="sm">{t('activities.confirmDelete')}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete-activity' } as Record<string, unknown>,
      onConfirm: () => void remove(),
    });

  const close = async () => {
    setClosing(true);
    try {
      await autosave.flush();
      if (isNew && idRef.current && isBlank(form)) {
        // What was written into the new activity was taken out again: do not leave an empty row behind.
        const current = await fetchActivity(idRef.current).catch(() => null);
        if (current && !current.files.length && !current.description) await deleteActivity(idRef.current).catch(() => undefined);
      }
      await qc.invalidateQueries({ queryKey: activityKeys.all });
      onClose();
    } finally {
      setClosing(false);
    }
  };

  const unreadable = useAnyInvalidEntry(entries);
  const statusText =
    unreadable && autosave.status !== 'pending' && autosave.status !== 'saving'
      ? t('common.notSavedUnreadable')
      : autosave.status === 'pending'
      ? t('activities.status.pending')
      : autosave.status === 'saving'
        ? t('activities.status.saving')
        : autosave.status === 'saved'
          ? t('activities.status.saved')
          : autosave.status === 'error'
            ? t('activities.status.error')
            : '';

  return (
    <InvalidEntryScopeProvider value={entries}>
    <Paper withBorder p="md" bg="var(--mantine-color-gray-0)" data-testid="activity-editor" data-activity-id={id}>
      <Stack gap="sm">
        {error && (
          <Alert color="red" withCloseButton onClose={() => setError(null)} data-testid="activity-editor-error">
            {error}
          </Alert>
        )}
        <Textarea
          label={t('activities.field.description')}
          autosize
          minRows={3}
          maxRows={16}
          value={form.description}
          onChange={(e) => set('description', e.currentTarget.value)}
          error={fieldErrors.description}
          data-testid="activity-description"
          data-autofocus
          autoFocus
        />
        <Group align="flex-end" gap="md" wrap="wrap">
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('activities.field.done')}
            </Text>
            <SegmentedControl
              value={stateOf(form.done)}
              onChange={(v) => set('done', v === 'none' ? null : v === 'complete')}
              data={[
                { value: 'none', label: t('activities.state.none') },
                { value: 'todo', label: t('activities.state.todo') },
                { value: 'complete', label: t('activities.state.complete') },
              ]}
              color={form.done === null ? 'gray' : form.done ? 'green' : 'red'}
              // Three states side by side do not fit a phone in Greek or Russian: one under another there.
              orientation={narrow ? 'vertical' : 'horizontal'}
              data-testid="activity-done"
            />
          </Stack>
          <Select
            label={t('activities.field.category')}
            w={200}
            allowDeselect={false}
            value={String(form.category)}
            onChange={(v) => set('category', Number(v ?? 0))}
            data={[0, 1, 2, 3].map((c) => ({ value: String(c), label: t(`activities.category.${c}`) }))}
            data-testid="activity-category"
          />
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <DateTimePicker
            {...pickerLocale()}
            label={t('activities.field.date')}
            clearable
            value={toPickerValue(form.date)}
            onChange={(v) => set('date', fromPickerValue(v))}
            valueFormat={dateTimeInputFormat()}
            getDayProps={markAgencyToday}
            error={fieldErrors.date}
            data-testid="activity-date"
          />
          <DateTimePicker
            {...pickerLocale()}
            label={t('activities.field.doneDate')}
            clearable
            value={toPickerValue(form.doneDate)}
            onChange={(v) => set('doneDate', fromPickerValue(v))}
            valueFormat={dateTimeInputFormat()}
            getDayProps={markAgencyToday}
            error={fieldErrors.doneDate}
            data-testid="activity-done-date"
          />
          <SearchPicker
            source={{ kind: 'accounts', filter: 1 }}
            label={t('activities.field.assignedTo')}
            placeholder={t('activities.assigneePlaceholder')}
            value={form.assignedTo}
            onPick={(p) => set('assignedTo', p ? { id: p.id, description: p.description } : null)}
            error={fieldErrors.assignedTo}
            testId="activity-assignee"
          />
        </SimpleGrid>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('activities.field.links')}
          </Text>
          <Stack gap={2} data-testid="activity-links">
            {form.links.map((l) => {
              const description = l.description || storedLinks.find((s) => s.entity === l.entity && s.id === l.id)?.description;
              // A new activity's own record is shown once the activity is stored (the answer names it).
              if (!description) return null;
              return (
                <Group key={`${l.entity}:${l.id}`} gap="xs" wrap="nowrap">
                  <RecordLink link={{ ...l, description }} />
                  <Tooltip label={t('activities.deleteLink')} withArrow>
                    <ActionIcon variant="subtle" color="red" size="sm" onClick={() => confirmDeleteLink(l)} aria-label={t('activities.deleteLink')} data-testid="activity-link-delete">
                      <IconX size={14} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              );
            })}
          </Stack>
          <SearchPicker
            source={{ kind: 'records' }}
            placeholder={t('activities.addLinkPlaceholder')}
            ariaLabel={t('activities.addLink')}
            leftSection={<IconLink size={16} />}
            onPick={(hit) => {
              if (!hit) return;
              const link = { entity: linkKindOfHit(hit.entity), id: hit.id, description: hit.description };
              setForm((f) => (f.links.some((l) => l.entity === link.entity && l.id === link.id) ? f : { ...f, links: [...f.links, link] }));
            }}
            testId="activity-link-add"
          />
        </Stack>
        <RecordFiles entityType={ACTIVITY_FILES} id={id} editable ensureParent={async () => idRef.current || (await add(formNow.current)).id} />
        <Group justify="space-between">
          <Button
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={16} />}
            // A new activity with nothing in it is not stored: there is nothing to confirm.
            onClick={() => (id === 0 && isBlank(form) ? void remove() : confirmDelete())}
            data-testid="activity-delete"
          >
            {t('activities.delete')}
          </Button>
          <Group gap="sm">
            <Text size="xs" c={autosave.status === 'error' || unreadable ? 'red' : 'dimmed'} data-testid="activity-save-status" data-status={unreadable ? 'unreadable' : autosave.status}>
              {statusText}
            </Text>
            <Button leftSection={<IconCircleCheck size={16} />} onClick={() => void close()} loading={closing} data-testid="activity-close">
              {t('activities.saveClose')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Paper>
    </InvalidEntryScopeProvider>
  );
}
