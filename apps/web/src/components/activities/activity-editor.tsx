import { ActionIcon, Alert, Button, Group, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { confirmAction } from '../confirm-action.tsx';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type Dispatch, type SetStateAction } from 'react';
import { useTranslation } from '../../lib/use-translation.tsx';
import type { TFunction } from 'i18next';
import { pickerLocale } from '../../lib/i18n.ts';
import { dateTimeInputFormat } from '../../lib/format.ts';
import { markAgencyToday } from '../fields/agency-today.ts';
import type { TActivity } from '@crm/contract';
import { reportError } from '../../lib/errors.ts';
import type { AutosaveStatus } from '../../lib/use-autosave.ts';
import { InvalidEntries, InvalidEntryScopeProvider, useAnyInvalidEntry } from '../fields/invalid-entry.ts';
import { IconCircleCheck, IconLink, IconTrash, IconX } from '../icons.ts';
import { RecordFiles } from '../record-files.tsx';
import { activityKeys, deleteActivity, fetchActivity } from './api.ts';
import { SearchPicker } from './search-picker.tsx';
import { RecordLink, fromPickerValue, linkKindOfHit, stateOf, toPickerValue, type TActivityLinkView } from './shared.tsx';
import { useMedia } from '../../lib/first-paint.ts';
import { isBlank, useActivitySave, type Form } from './activity-save.ts';

const ACTIVITY_FILES = 3; // LinkKind.Activity: files of an activity

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
 * The inline activity editor: every change is saved about 400 ms later (see useActivitySave).
 * "Save and close" saves what is pending and closes. A new activity (unsavedActivity) is stored at
 * its first save with something in it, so that opening it and leaving stores nothing (`onCreated`
 * tells its id); one emptied again is removed on close.
 */
export function ActivityEditor({ activity, isNew, onClose, onCreated }: { activity: TActivity; isNew: boolean; onClose: () => void; onCreated?: (a: TActivity) => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { id, idRef, storedLinks, form, setForm, formNow, error, setError, fieldErrors, autosave, add, adding } = useActivitySave(activity, onCreated);
  const [closing, setClosing] = useState(false);
  const [entries] = useState(() => new InvalidEntries());
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));

  // The lists and the timeline refreshed before the editor closes, so no row shows what was just
  // changed or removed; on a slow connection it closes after 2 s and they go on refreshing behind it.
  const refreshed = () => Promise.race([qc.invalidateQueries({ queryKey: activityKeys.all }), new Promise((resolve) => setTimeout(resolve, 2000))]);

  const remove = async () => {
    try {
      // Nothing more is saved; a new activity being stored is waited for, and then deleted.
      autosave.reset(form);
      await adding.current?.catch(() => null);
      if (idRef.current) await deleteActivity(idRef.current);
      await refreshed();
      onClose();
    } catch (e) {
      reportError(e);
    }
  };

  const close = async () => {
    setClosing(true);
    try {
      await autosave.flush();
      if (isNew && idRef.current && isBlank(form)) {
        // What was written into the new activity was taken out again: do not leave an empty row behind.
        const current = await fetchActivity(idRef.current).catch(() => null);
        if (current && !current.files.length && !current.description) await deleteActivity(idRef.current).catch(() => undefined);
      }
      await refreshed();
      onClose();
    } finally {
      setClosing(false);
    }
  };

  const unreadable = useAnyInvalidEntry(entries);
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
        <ActivityFields form={form} set={set} fieldErrors={fieldErrors} />
        <ActivityLinks form={form} setForm={setForm} storedLinks={storedLinks} />
        <RecordFiles entityType={ACTIVITY_FILES} id={id} editable ensureParent={async () => idRef.current || (await add(formNow.current)).id} />
        <Group justify="space-between">
          <Button
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={16} />}
            // A new activity with nothing in it is not stored: there is nothing to confirm.
            onClick={() => (id === 0 && isBlank(form) ? void remove() : confirmRemoval(t, 'activities.delete', 'activities.confirmDelete', 'confirm-delete-activity', () => void remove()))}
            data-testid="activity-delete"
          >
            {t('activities.delete')}
          </Button>
          <Group gap="sm">
            <Text size="xs" c={autosave.status === 'error' || unreadable ? 'red' : 'dimmed'} data-testid="activity-save-status" data-status={unreadable ? 'unreadable' : autosave.status}>
              {statusText(t, autosave.status, unreadable)}
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

const statusText = (t: TFunction, status: AutosaveStatus, unreadable: boolean) =>
  unreadable && status !== 'pending' && status !== 'saving'
    ? t('common.notSavedUnreadable')
    : status === 'pending'
      ? t('activities.status.pending')
      : status === 'saving'
        ? t('activities.status.saving')
        : status === 'saved'
          ? t('activities.status.saved')
          : status === 'error'
            ? t('activities.status.error')
            : '';

/** Asks before something is deleted (the activity, one of its links). */
const confirmRemoval = (t: TFunction, title: string, text: string, testId: string, onConfirm: () => void) =>
  confirmAction(t, { title: t(title), text: t(text), testId, onConfirm });

type SetField = <K extends keyof Form>(key: K, value: Form[K]) => void;

/** The state, category, planned and completion dates, and who it is assigned to. */
function ActivityFields({ form, set, fieldErrors }: { form: Form; set: SetField; fieldErrors: Record<string, string> }) {
  const { t } = useTranslation();
  const narrow = useMedia('(max-width: 30em)', false);
  const dateTime = (key: 'date' | 'doneDate', testId: string) => (
    <DateTimePicker
      {...pickerLocale()}
      label={t(`activities.field.${key}`)}
      clearable
      value={toPickerValue(form[key])}
      onChange={(v) => set(key, fromPickerValue(v))}
      valueFormat={dateTimeInputFormat()}
      getDayProps={markAgencyToday}
      error={fieldErrors[key]}
      data-testid={testId}
    />
  );
  return (
    <>
      <Group align="flex-end" gap="md" wrap="wrap">
        <Stack gap={4}>
          <Text size="sm" fw={500}>{t('activities.field.done')}</Text>
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
        {dateTime('date', 'activity-date')}
        {dateTime('doneDate', 'activity-done-date')}
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
    </>
  );
}

/** The records the activity is linked to: each can be taken off (after asking), and more added by a search. */
function ActivityLinks({ form, setForm, storedLinks }: { form: Form; setForm: Dispatch<SetStateAction<Form>>; storedLinks: TActivityLinkView[] }) {
  const { t } = useTranslation();
  const same = (a: TActivityLinkView, b: TActivityLinkView) => a.entity === b.entity && a.id === b.id;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>{t('activities.field.links')}</Text>
      <Stack gap={2} data-testid="activity-links">
        {form.links.map((l) => {
          const description = l.description || storedLinks.find((s) => same(s, l))?.description;
          // A new activity's own record is shown once the activity is stored (the answer names it).
          if (!description) return null;
          const confirm = () => confirmRemoval(t, 'activities.deleteLink', 'activities.confirmDeleteLink', 'confirm-delete-link', () => setForm((f) => ({ ...f, links: f.links.filter((o) => !same(o, l)) })));
          return (
            <Group key={`${l.entity}:${l.id}`} gap="xs" wrap="nowrap">
              <RecordLink link={{ ...l, description }} />
              <Tooltip label={t('activities.deleteLink')} withArrow>
                <ActionIcon variant="subtle" color="red" size="sm" onClick={confirm} aria-label={t('activities.deleteLink')} data-testid="activity-link-delete"><IconX size={14} /></ActionIcon>
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
          setForm((f) => (f.links.some((l) => same(l, link)) ? f : { ...f, links: [...f.links, link] }));
        }}
        testId="activity-link-add"
      />
    </Stack>
  );
}
