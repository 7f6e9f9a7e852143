import { FailureAlert } from '../../../components/failure-alert.tsx';
import { Badge, Button, Group, Modal, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { confirmAction } from '../../../components/confirm-action.tsx';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TMailbox } from '@crm/contract';
import { MAILBOX } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';
import { showBanner } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { useMedia } from '../../../lib/first-paint.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { isOfficeAdmin, useSession } from '../../../lib/session.ts';
import { PageLoading } from '../../../components/page-loading.tsx';
import { MailboxForm } from '../components/mailbox-form.tsx';

const KEY = ['mailboxes'];

function SyncState({ m }: { m: TMailbox }) {
  const { t } = useTranslation();
  if (m.lastSyncError) {
    return (
      <Badge color="red" variant="light" data-testid="mailbox-sync-error">
        {t('mailbox.syncFailed', { reason: t(`mailbox.step.${m.lastSyncError}`) })}
      </Badge>
    );
  }
  return <Text size="sm">{m.lastSyncOn ? formatDateTime(m.lastSyncOn) : t('mailbox.neverSynced')}</Text>;
}

function MailboxCard({ m, admin, onEdit }: { m: TMailbox; admin: boolean; onEdit: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const fail = (e: unknown) => {
    const d = describeError(e);
    showBanner(d.type, d.message, { details: d.details });
  };
  const sync = useMutation({
    mutationFn: () => call(MAILBOX.calls.sync, { params: { id: m.id } }),
    onSuccess: () => showBanner('success', t('mailbox.syncQueued')),
    onError: fail,
  });
  const remove = () =>
    confirmAction(t, { title: t('mailbox.remove'), text: t('mailbox.removeConfirm', { name: `${m.name} <${m.address}>` }), confirm: t('mailbox.remove'), testId: 'mailbox-remove-confirm', onConfirm: async () => {
        try {
          await call(MAILBOX.calls.remove, { params: { id: m.id } });
        } catch (e) {
          fail(e);
        }
        await qc.invalidateQueries({ queryKey: KEY });
      },
    });
  return (
    <Paper withBorder p="md" data-testid="mailbox-card" data-id={m.id}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <div style={{ minWidth: 0 }}>
            <Title order={3} size="h4" style={{ overflowWrap: 'anywhere' }}>
              {m.name}
            </Title>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {m.address}
            </Text>
          </div>
          <Badge variant="light" color={m.ownerId == null ? 'blue' : 'gray'} style={{ flexShrink: 0 }}>
            {m.ownerId == null ? t('mailbox.field.shared') : m.ownerName}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          IMAP {m.imapHost}:{m.imapPort} · {m.imapFolder}
          {m.smtpHost ? ` · SMTP ${m.smtpHost}:${m.smtpPort}` : ''}
        </Text>
        <Group gap="lg">
          <div>
            <Text size="xs" c="dimmed">
              {t('mailbox.col.status')}
            </Text>
            <SyncState m={m} />
          </div>
          <div>
            <Text size="xs" c="dimmed">
              {t('mailbox.col.messages')}
            </Text>
            <Text size="sm" data-testid="mailbox-messages">
              {m.messages}
            </Text>
          </div>
        </Group>
        {admin && (
          <Group gap="xs" mt={4}>
            <Button size="xs" variant="light" onClick={onEdit} data-testid="mailbox-edit">
              {t('common.edit')}
            </Button>
            <Button size="xs" variant="light" loading={sync.isPending} disabled={!m.active} onClick={() => sync.mutate()} data-testid="mailbox-sync">
              {t('mailbox.syncNow')}
            </Button>
            <Button size="xs" variant="subtle" color="red" onClick={remove} data-testid="mailbox-remove">
              {t('mailbox.remove')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** /Mailboxes: the connected mailboxes; an office administrator connects, changes, tests and disconnects them (decision 078). */
export function MailboxesPage() {
  const { t } = useTranslation();
  const admin = isOfficeAdmin(useSession());
  const phone = useMedia('(max-width: 48em)', false);
  const qc = useQueryClient();
  const q = useQuery({ queryKey: KEY, queryFn: ({ signal }) => call(MAILBOX.calls.list, {}, { signal }), refetchInterval: 30000 });
  const [editing, setEditing] = useState<TMailbox | 'new' | null>(null);
  if (q.isError) return <FailureAlert failure={q.error} testId="mailboxes-error" />;
  if (!q.data) return <PageLoading />;
  const items = q.data.items;
  return (
    <Stack gap="md" maw={1100} data-testid="mailboxes-page">
      <Group justify="space-between">
        <Title order={2}>{t('title.mailboxes')}</Title>
        {admin && (
          <Button onClick={() => setEditing('new')} disabled={!q.data.canStore} data-testid="mailbox-add">
            {t('mailbox.add')}
          </Button>
        )}
      </Group>
      <Text size="sm" c="dimmed">
        {t('mailbox.intro')}
      </Text>
      {admin && !q.data.canStore && (
        <Text c="red" size="sm" data-testid="mailbox-no-key">
          {t('mailbox.noSecretKey')}
        </Text>
      )}
      {items.length ? (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          {items.map((m) => (
            <MailboxCard key={m.id} m={m} admin={admin} onEdit={() => setEditing(m)} />
          ))}
        </SimpleGrid>
      ) : (
        <Text data-testid="mailboxes-empty">{admin ? t('mailbox.empty') : t('mailbox.none')}</Text>
      )}
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? t('mailbox.add') : t('mailbox.edit')} size="xl" fullScreen={phone} closeButtonProps={{ 'aria-label': t('common.close') }}>
        {editing !== null && (
          <MailboxForm
            mailbox={editing === 'new' ? null : editing}
            owners={q.data.owners}
            onCancel={() => setEditing(null)}
            onSaved={(m) => {
              setEditing(null);
              showBanner('success', t('mailbox.saved'));
              qc.setQueryData(KEY, { ...q.data, items: editing === 'new' ? [...items, m] : items.map((x) => (x.id === m.id ? m : x)) });
              void qc.invalidateQueries({ queryKey: KEY });
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}
