import { Alert, Badge, Button, Card, Checkbox, CopyButton, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { confirmAction } from '../../../components/confirm-action.tsx';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { SHORTLIST_MAX_OBJECTS } from '@crm/contract/constants';
import type { TShortlistChannel, TShortlistSent, TShortlistSummary } from '@crm/contract';
import { ANSWER_COLOR } from '../../../lib/shortlist-colors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import type { TLeadAnswer } from '../api/leads.ts';
import { leadShortlistsQuery, sendShortlist, sendShortlistAgain, withdrawShortlist } from '../api/shortlists.ts';
import { FailureAlert } from '../../../components/failure-alert.tsx';

/**
 * The lead's shortlists: "Send to client" picks some of the offered properties and mails them to
 * the client or makes a link to paste into a chat; below, what was sent, whether it was opened,
 * and the client's answers. A link still working can be withdrawn; any sending can be sent again
 * (a new link for the same properties, the old one withdrawn), each after a confirmation.
 */
export function LeadShortlists({ lead }: { lead: TLeadAnswer }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const q = useQuery(leadShortlistsQuery(lead.id));
  const list = q.data?.items ?? [];
  const withdraw = useMutation({
    mutationFn: (shortlistId: number) => withdrawShortlist(lead.id, shortlistId),
    onSuccess: (d) => qc.setQueryData(leadShortlistsQuery(lead.id).queryKey, d),
  });
  const [again, setAgain] = useState<TShortlistSent | null>(null);
  const sendAgain = useMutation({
    mutationFn: (shortlistId: number) => sendShortlistAgain(lead.id, shortlistId),
    onSuccess: (r) => {
      setAgain(r);
      void qc.invalidateQueries({ queryKey: leadShortlistsQuery(lead.id).queryKey });
    },
  });
  const confirmAgain = (s: TShortlistSummary) =>
    confirmAction(t, {
      title: t('shortlist.ui.sendAgainTitle'),
      text: s.channel === 'email' ? t('shortlist.ui.sendAgainTextEmail') : t('shortlist.ui.sendAgainTextLink'),
      confirm: t('shortlist.ui.sendAgain'),
      color: '',
      testId: 'shortlist-again-confirm',
      onConfirm: () => sendAgain.mutate(s.id),
    });
  const confirmWithdraw = (shortlistId: number) =>
    // Not "Cancel": in Greek the action itself is «Ακύρωση συνδέσμου».
    confirmAction(t, { title: t('shortlist.ui.withdrawTitle'), text: t('shortlist.ui.withdrawText'), confirm: t('shortlist.ui.withdraw'), cancel: t('shortlist.ui.keep'), testId: 'shortlist-withdraw-confirm', onConfirm: () => withdraw.mutate(shortlistId) });
  return (
    <Card withBorder padding="sm" data-testid="lead-shortlists">
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h5">
          {t('shortlist.ui.sentTitle')}
        </Title>
        <Button size="xs" onClick={() => setOpen(true)} data-testid="shortlist-open">
          {t('shortlist.ui.send')}
        </Button>
      </Group>
      <Stack gap="xs">
        {q.isSuccess && list.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('shortlist.ui.none')}
          </Text>
        )}
        {list.map((s) => (
          <Stack key={s.id} gap={2} data-testid="shortlist-sent">
            <Text size="sm">
              <b>{formatDateTime(s.sentOn)}</b> · {s.channel === 'email' ? t('shortlist.ui.viaEmail', { email: s.email ?? '' }) : t('shortlist.ui.viaLink')}
              {s.sentBy ? ` · ${s.sentBy}` : ''} ·{' '}
              <span data-testid="shortlist-opened">{s.openedOn ? t('shortlist.ui.opened', { date: formatDateTime(s.openedOn) }) : t('shortlist.ui.notOpened')}</span>
              {s.withdrawnOn ? (
                <span data-testid="shortlist-withdrawn">
                  {' · '}
                  {t('shortlist.ui.withdrawn', { date: formatDateTime(s.withdrawnOn) })}
                  {s.withdrawnBy ? ` (${s.withdrawnBy})` : ''}
                </span>
              ) : s.expired ? (
                ` · ${t('shortlist.ui.expired')}`
              ) : (
                ''
              )}
            </Text>
            <Group gap={6}>
              {s.items.map((i) => (
                <Badge key={i.objectId} variant="light" color={i.answer ? ANSWER_COLOR[i.answer] : 'blue'} tt="none" data-testid="shortlist-item">
                  #{i.objectReferenceNumber}: {i.answer ? t(`shortlist.page.${i.answer}`) : t('shortlist.ui.noAnswer')}
                </Badge>
              ))}
              <Button
                size="compact-xs"
                variant="subtle"
                onClick={() => confirmAgain(s)}
                aria-label={`${t('shortlist.ui.sendAgain')}: ${formatDateTime(s.sentOn)}`}
                loading={sendAgain.isPending && sendAgain.variables === s.id}
                disabled={sendAgain.isPending}
                data-testid="shortlist-again"
              >
                {t('shortlist.ui.sendAgain')}
              </Button>
              {!s.withdrawnOn && !s.expired && (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="red"
                  c="red.9"
                  onClick={() => confirmWithdraw(s.id)}
                  aria-label={`${t('shortlist.ui.withdraw')}: ${formatDateTime(s.sentOn)}`}
                  loading={withdraw.isPending && withdraw.variables === s.id}
                  data-testid="shortlist-withdraw"
                >
                  {t('shortlist.ui.withdraw')}
                </Button>
              )}
            </Group>
          </Stack>
        ))}
      </Stack>
      {open && <SendDialog lead={lead} onClose={() => setOpen(false)} />}
      {again && (
        <Modal opened onClose={() => setAgain(null)} closeButtonProps={{ 'aria-label': t('common.close') }} title={t('shortlist.ui.dialogTitle')} size="lg" data-testid="shortlist-again-dialog">
          <Sent sent={again} onClose={() => setAgain(null)} />
        </Modal>
      )}
    </Card>
  );
}

function SendDialog({ lead, onClose }: { lead: TLeadAnswer; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [chosen, setChosen] = useState<number[]>(lead.objects.slice(0, SHORTLIST_MAX_OBJECTS).map((o) => o.objectId));
  const [sent, setSent] = useState<TShortlistSent | null>(null);
  const send = useMutation({
    mutationFn: (channel: TShortlistChannel) => sendShortlist(lead.id, { objectIds: chosen, channel }),
    onSuccess: (r) => {
      setSent(r);
      void client.invalidateQueries({ queryKey: leadShortlistsQuery(lead.id).queryKey });
    },
    meta: { handlesErrors: true },
  });
  const tooMany = chosen.length > SHORTLIST_MAX_OBJECTS;
  return (
    <Modal opened onClose={onClose} closeButtonProps={{ 'aria-label': t('common.close') }} title={t('shortlist.ui.dialogTitle')} size="lg" data-testid="shortlist-dialog">
      {sent ? (
        <Sent sent={sent} onClose={onClose} />
      ) : lead.objects.length === 0 ? (
        <Text size="sm">{t('shortlist.ui.noObjects')}</Text>
      ) : (
        <Stack>
          <Checkbox.Group label={t('shortlist.ui.choose')} value={chosen.map(String)} onChange={(v) => setChosen(v.map(Number))}>
            <Stack gap={6} mt={6}>
              {lead.objects.map((o) => (
                <Checkbox
                  key={o.objectId}
                  value={String(o.objectId)}
                  label={`#${o.objectReferenceNumber}${o.title ? ` · ${o.title}` : ''}`}
                  data-testid="shortlist-choice"
                />
              ))}
            </Stack>
          </Checkbox.Group>
          {tooMany && <Alert color="orange">{t('shortlist.tooMany')}</Alert>}
          <FailureAlert failure={send.error} role="alert" testId="shortlist-error" />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => send.mutate('email')} loading={send.isPending && send.variables === 'email'} disabled={!chosen.length || tooMany || send.isPending} data-testid="shortlist-email">
              {t('shortlist.ui.byEmail')}
            </Button>
            <Button onClick={() => send.mutate('link')} loading={send.isPending && send.variables === 'link'} disabled={!chosen.length || tooMany || send.isPending} data-testid="shortlist-link-make">
              {t('shortlist.ui.copyLink')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** What was sent: the message, and for a link the link to copy (shown only now). */
function Sent({ sent, onClose }: { sent: TShortlistSent; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack>
      <Alert color="green" data-testid="shortlist-done">
        {sent.message}
      </Alert>
      {!sent.email && (
        <>
          <TextInput label={t('shortlist.ui.link')} description={t('shortlist.ui.linkHint')} value={sent.url} readOnly onFocus={(e) => e.currentTarget.select()} data-testid="shortlist-link" />
          <CopyButton value={sent.url}>
            {({ copied, copy }) => (
              <Button onClick={copy} color={copied ? 'teal' : undefined} data-testid="shortlist-copy">
                {copied ? t('shortlist.ui.copied') : t('shortlist.ui.copyLink')}
              </Button>
            )}
          </CopyButton>
        </>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('common.close')}
        </Button>
      </Group>
    </Stack>
  );
}
