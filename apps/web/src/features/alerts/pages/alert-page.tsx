import { Anchor, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link, useNavigate } from 'react-router';
import { ALERT_NOTES_MAX } from '@crm/contract/constants';
import { ALERT, href } from '@crm/contract/resources';
import { ApiError } from '../../../lib/api.ts';
import { showBanner, showBannerAfterNavigation } from '../../../lib/banner.ts';
import { reportError } from '../../../lib/errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useUnsavedGuard } from '../../../lib/unsaved-guard.tsx';
import { RecordLoad, useDeleteRecord, useRecordAddress } from '../../../kit/record.tsx';
import { alertKeys, alertQuery, deleteAlert, markAlertUnread, saveAlertNotes, type TAlert } from '../api/alerts.ts';
import { AlertActions } from '../components/alert-actions.tsx';
import './alerts.css';

/** What an alert's change shows again: the list, and the unread count. */
const LISTS = [['alerts', 'list'], alertKeys.unreadCount];

/** /Alerts/{id}: content, source, date, notes; opening marks it read. */
export function AlertPage() {
  const { id, valid } = useRecordAddress();
  const client = useQueryClient();
  const q = useQuery({ ...alertQuery(id ?? 0), enabled: id != null && valid });
  // Opened (and so read): the badge and the list follow.
  const read = q.data?.readedOn;
  useEffect(() => {
    if (read === undefined) return;
    void client.invalidateQueries({ queryKey: alertKeys.unreadCount });
    void client.invalidateQueries({ queryKey: ['alerts', 'list'] });
  }, [read, client]);
  return (
    <RecordLoad q={q} valid={valid && id != null} mode="view" testId="alert">
      {(alert) => <AlertView key={`${alert.id}:${alert.version}`} alert={alert} />}
    </RecordLoad>
  );
}

function AlertView({ alert: initial }: { alert: TAlert }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [alert, setAlert] = useState(initial);
  const [notes, setNotes] = useState(initial.notes ?? '');
  const toList = () => navigate(href(ALERT.screens.list));
  const changed = (notes.trim() ? notes : '') !== (alert.notes ?? '');
  // One save at a time: a double click saves once (the second would carry a spent version and be
  // told, wrongly, that someone else had changed the alert).
  const saving = useRef<Promise<unknown> | null>(null);
  const saveNotes = (): Promise<unknown> => (saving.current ??= save.mutateAsync());

  const unread = useMutation({
    mutationFn: async () => {
      if (changed) await saveNotes();
      return markAlertUnread(alert.id);
    },
    onSuccess: () => {
      client.removeQueries({ queryKey: alertKeys.one(alert.id) });
      LISTS.forEach((queryKey) => void client.invalidateQueries({ queryKey }));
      showBannerAfterNavigation('success', t('alerts.markedUnread'));
      toList();
    },
    onError: reportError,
  });
  const save = useMutation({
    mutationFn: () => saveAlertNotes(alert.id, notes.trim() ? notes : null, alert.version, alert.notes ?? null),
    onSettled: () => {
      saving.current = null;
    },
    onSuccess: (saved) => {
      setAlert(saved);
      setNotes(saved.notes ?? '');
      client.setQueryData(alertKeys.one(saved.id), saved);
      showBanner('success', t('alerts.notesSaved'));
    },
    onError: (e) => {
      if (e instanceof ApiError && e.status === 409 && e.problem.current) {
        // Someone else saved other notes first. Nothing is overwritten, and nothing typed is lost:
        // what this user typed stays in the box, theirs is quoted, and Save Notes now replaces theirs.
        // (The cache is left as it was: a new version there would open the alert afresh, box and all.)
        const current = e.problem.current as TAlert;
        setAlert(current);
        showBanner('warning', t('alerts.notesConflict', { theirs: current.notes?.trim() ? current.notes : t('alerts.notesNone') }));
        return;
      }
      reportError(e);
    },
  });
  // Notes typed and not saved are not lost by leaving: leaving saves them first (the shell's guard),
  // and marking the alert unread saves them before it goes back to the list.
  const gone = useRef(false);
  useUnsavedGuard({
    // Notes are saved by their button, not by themselves: typed and not saved, they count as not
    // stored ('error'), so closing the tab asks the browser's question too.
    status: gone.current ? 'saved' : save.isPending ? 'saving' : changed ? 'error' : 'saved',
    flush: async () => {
      if (gone.current || !changed) return true;
      try {
        await saveNotes();
        return true;
      } catch {
        return false;
      }
    },
  });

  const confirmDelete = useDeleteRecord();
  const remove = () =>
    confirmDelete({
      title: t('alerts.delete'),
      text: t('alerts.deleteConfirm'),
      run: () => deleteAlert(alert.id),
      drop: [alertKeys.one(alert.id)],
      refresh: LISTS,
      done: { banner: ['success', t('alerts.deleted')], to: href(ALERT.screens.list) },
      onError: (message) => showBanner('danger', message),
      release: () => void (gone.current = true),
    });

  return (
    <Paper withBorder p="md" maw={820} data-testid="alert-view">
      <Stack gap="md">
        <Title order={2}>{t('title.alert')}</Title>
        <dl className="alert-facts">
          <Fact label={t('alerts.col.date')} testId="alert-date">
            {formatDateTime(alert.date)}
          </Fact>
          <Fact label={t('alerts.col.source')} testId="alert-source">
            {alert.source}
          </Fact>
          {alert.readedOn && (
            <Fact label={t('alerts.col.readOn')} testId="alert-read">
              {formatDateTime(alert.readedOn)}
              {alert.readedBy ? ` · ${alert.readedBy}` : ''}
            </Fact>
          )}
        </dl>
        <Stack gap={4}>
          <Text size="sm" fw={600} component="h3" m={0}>
            {t('alerts.content')}
          </Text>
          <Text style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }} data-testid="alert-content">
            {alert.content}
          </Text>
          {alert.link && (
            <Anchor component={Link} to={alert.link} size="sm" data-testid="alert-record-link">
              {t('alerts.openRecord')}
            </Anchor>
          )}
        </Stack>
        <Textarea label={t('alerts.notes')} value={notes} onChange={(e) => setNotes(e.currentTarget.value)} autosize minRows={3} maxRows={12} maxLength={ALERT_NOTES_MAX} data-testid="alert-notes" />
        <AlertActions onBack={toList} onUnread={() => unread.mutate()} unreading={unread.isPending} onDelete={remove} onSave={() => void saveNotes().catch(() => undefined)} saving={save.isPending} />
      </Stack>
    </Paper>
  );
}

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <Text component="dt" size="sm" c="dimmed" w={110} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text component="dd" size="sm" m={0} data-testid={testId}>
        {children}
      </Text>
    </Group>
  );
}
