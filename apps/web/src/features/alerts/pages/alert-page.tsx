import { ActionIcon, Alert, Anchor, Button, Group, Menu, Paper, Skeleton, Stack, Text, Textarea, Title, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import type { TAlert } from '@crm/contract';
import { ALERT_NOTES_MAX } from '@crm/contract/constants';
import { RecordNotFound } from '../../../components/record-not-found.tsx';
import { IconAlertTriangle, IconArrowLeft, IconDots, IconTrash } from '../../../components/icons.ts';
import { ApiError } from '../../../lib/api.ts';
import { showBanner, showBannerAfterNavigation } from '../../../lib/banner.ts';
import { reportError } from '../../../lib/errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useUnsavedGuard } from '../../../lib/unsaved-guard.tsx';
import './alerts.css';
import { alertKeys, alertQuery, deleteAlert, markAlertUnread, saveAlertNotes } from '../api/alerts.ts';
import { DeleteMenuItem } from '../../../components/delete-menu-item.tsx';
import { useMedia } from '../../../lib/first-paint.ts';

/** /Alerts/{id}: content, source, date, notes; opening marks it read. */
export function AlertPage() {
  const { id: idParam = '' } = useParams();
  const id = Number(idParam);
  if (!Number.isInteger(id) || id < 1 || id > 2147483647) return <RecordNotFound testId="alert-not-found" />;
  return <ExistingAlert id={id} />;
}

function ExistingAlert({ id }: { id: number }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const q = useQuery(alertQuery(id));
  // Opened (and so read): the badge and the list follow.
  const read = q.data?.readedOn;
  useEffect(() => {
    if (read === undefined) return;
    void client.invalidateQueries({ queryKey: alertKeys.unreadCount });
    void client.invalidateQueries({ queryKey: ['alerts', 'list'] });
  }, [read, client]);
  if (q.isPending) return <Skeleton height={360} maw={820} />;
  if (q.isError) {
    if (q.error instanceof ApiError && q.error.status === 404) return <RecordNotFound testId="alert-not-found" />;
    return (
      <Alert color="red" icon={<IconAlertTriangle size={18} />} maw={820}>
        {q.error instanceof Error ? q.error.message : t('errors.internal')}
      </Alert>
    );
  }
  return <AlertView key={`${id}:${q.data.version}`} alert={q.data} />;
}

function AlertView({ alert: initial }: { alert: TAlert }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [alert, setAlert] = useState(initial);
  const [notes, setNotes] = useState(initial.notes ?? '');
  const refreshLists = () => {
    void client.invalidateQueries({ queryKey: ['alerts', 'list'] });
    void client.invalidateQueries({ queryKey: alertKeys.unreadCount });
  };
  const toList = () => navigate('/Alerts');
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
      refreshLists();
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

  const remove = useMutation({
    mutationFn: () => deleteAlert(alert.id),
    onSuccess: () => {
      gone.current = true;
      client.removeQueries({ queryKey: alertKeys.one(alert.id) });
      refreshLists();
      showBannerAfterNavigation('success', t('alerts.deleted'));
      toList();
    },
    onError: reportError,
  });
  const phone = useMedia('(max-width: 35.99em)', false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t('alerts.delete'),
      children: <Text size="sm">{t('alerts.deleteConfirm')}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete' } as Record<string, unknown>,
      onConfirm: () => remove.mutate(),
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
        <Textarea
          label={t('alerts.notes')}
          value={notes}
          onChange={(e) => setNotes(e.currentTarget.value)}
          autosize
          minRows={3}
          maxRows={12}
          maxLength={ALERT_NOTES_MAX}
          data-testid="alert-notes"
        />
        {phone ? (
          // On a phone the four buttons took a line each: Back is an icon, the rarer Mark as unread and
          // Delete are in the Actions menu (as on a record's form), Save stays a button.
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Group gap="xs" wrap="nowrap">
              <Tooltip label={t('alerts.backToList')}>
                <ActionIcon variant="default" size={36} onClick={toList} aria-label={t('alerts.backToList')} data-testid="alert-back">
                  <IconArrowLeft size={18} />
                </ActionIcon>
              </Tooltip>
              <Menu position="bottom-start" withinPortal>
                <Menu.Target>
                  <Tooltip label={t('accounts.ui.view.actions')}>
                    <ActionIcon ref={menuButton} variant="default" size={36} aria-label={t('accounts.ui.view.actions')} data-testid="alert-actions">
                      <IconDots size={18} />
                    </ActionIcon>
                  </Tooltip>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item onClick={() => unread.mutate()} data-testid="alert-mark-unread">
                    {t('alerts.markUnread')}
                  </Menu.Item>
                  <DeleteMenuItem onClick={confirmDelete} returnFocusTo={menuButton} testId="alert-delete">
                    {t('common.delete')}
                  </DeleteMenuItem>
                </Menu.Dropdown>
              </Menu>
            </Group>
            {/* Under the notes, "Save" says enough ("Αποθήκευση σημειώσεων" was cut at 360 px). */}
            <Button onClick={() => void saveNotes().catch(() => undefined)} loading={save.isPending} data-testid="alert-save-notes">
              {t('common.save')}
            </Button>
          </Group>
        ) : (
          <Group justify="space-between" gap="sm">
            <Group gap="sm">
              <Button variant="default" onClick={toList} data-testid="alert-back">
                {t('alerts.backToList')}
              </Button>
              <Button variant="light" onClick={() => unread.mutate()} loading={unread.isPending} data-testid="alert-mark-unread">
                {t('alerts.markUnread')}
              </Button>
            </Group>
            <Group gap="sm">
              <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={confirmDelete} loading={remove.isPending} data-testid="alert-delete">
                {t('common.delete')}
              </Button>
              <Button onClick={() => void saveNotes().catch(() => undefined)} loading={save.isPending} data-testid="alert-save-notes">
                {t('alerts.saveNotes')}
              </Button>
            </Group>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function Fact({ label, children, testId }: { label: string; children: React.ReactNode; testId: string }) {
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
