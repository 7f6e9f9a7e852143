// The owner's report on a property's page (decision 087): its private link, the mail now or monthly,
// and which viewing comments the owner sees.
import { Alert, Button, Card, Checkbox, CopyButton, Group, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { confirmAction } from '../../../components/confirm-action.tsx';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TOwnerReportState, TOwnerReportViewingLine } from '@crm/contract';
import { showBanner } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import { makeOwnerReportLink, ownerReportKeys, ownerReportQuery, revokeOwnerReport, sendOwnerReport, setOwnerReportMonthly, shareWithOwner } from '../api/owner-report.ts';

const onError = (e: unknown) => {
  const d = describeError(e);
  showBanner(d.type, d.message, { details: d.details });
};

export function OwnerReportCard({ objectId }: { objectId: number }) {
  const { t } = useTranslation();
  const q = useQuery(ownerReportQuery(objectId));
  const s = q.data;
  return (
    <Card withBorder padding="sm" data-testid="owner-report">
      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('ownerReport.card.title')}
        </Title>
        {s && !s.mandateInForce && (
          <Text size="sm" c="dimmed" data-testid="owner-report-no-mandate">
            {t('ownerReport.card.noMandate')}
          </Text>
        )}
        {s?.mandateInForce && <ReportSetUp s={s} />}
      </Stack>
    </Card>
  );
}

type NewestAnswer = { begin: () => Promise<number>; put: (n: number, next: TOwnerReportState) => void; settle: () => void };

/**
 * The card's state as the server last answered it. Each write is numbered when it starts; an answer
 * is shown only if no later write's answer is already shown, and a read still on its way is dropped.
 * When the last write in flight settles the state is read once more: two writes may reach the server
 * in another order than they were started, and only a read after both says what is stored.
 * Without this a slow answer (the share ticked just before "make link") put back the state from before
 * the newer write, and the card offered "withdraw" for links already withdrawn, or hid it for a new one.
 */
function useNewestAnswer(objectId: number): NewestAnswer {
  const qc = useQueryClient();
  const order = useRef({ started: 0, shown: 0, pending: 0 });
  const key = ownerReportKeys.ofObject(objectId);
  return {
    begin: async () => {
      order.current.pending += 1;
      await qc.cancelQueries({ queryKey: key });
      return ++order.current.started;
    },
    settle: () => {
      order.current.pending -= 1;
      if (order.current.pending === 0) void qc.invalidateQueries({ queryKey: key });
    },
    put: (n, next) => {
      if (n < order.current.shown) return;
      order.current.shown = n;
      qc.setQueryData(key, next);
    },
  };
}

function ReportSetUp({ s }: { s: TOwnerReportState }) {
  const { t } = useTranslation();
  const id = s.objectId;
  const [url, setUrl] = useState<string | null>(null);
  const { begin, put, settle } = useNewestAnswer(id);
  const make = useMutation({ mutationFn: () => makeOwnerReportLink(id), onMutate: begin, onSuccess: (r, _v, n) => (setUrl(r.url), put(n, r.state)), onSettled: settle, onError });
  const send = useMutation({
    mutationFn: () => sendOwnerReport(id),
    onMutate: begin,
    onSuccess: (r, _v, n) => (put(n, r.state), showBanner('success', t('ownerReport.card.sent', { emails: r.sentTo.join(', ') }))),
    onSettled: settle,
    onError,
  });
  const revoke = useMutation({ mutationFn: () => revokeOwnerReport(id), onMutate: begin, onSuccess: (r, _v, n) => (setUrl(null), put(n, r)), onSettled: settle, onError });
  const monthly = useMutation({ mutationFn: (on: boolean) => setOwnerReportMonthly(id, on), onMutate: begin, onSuccess: (r, _v, n) => put(n, r), onSettled: settle, onError });
  const askRevoke = () =>
    confirmAction(t, { title: t('ownerReport.card.revoke'), text: t('ownerReport.card.revokeConfirm'), confirm: t('ownerReport.card.revoke'), testId: 'owner-report-revoke-confirm', onConfirm: () => revoke.mutate(),
    });
  const owners = s.owners.map((o) => `${o.name} (${o.email ?? t('ownerReport.card.noEmail')})`).join(', ');
  return (
    <>
      <Text size="sm">{t('ownerReport.card.intro')}</Text>
      {owners && <Text size="sm">{t('ownerReport.card.owners', { names: owners })}</Text>}
      <Text size="sm" c="dimmed" data-testid="owner-report-state">
        {t('ownerReport.card.activeLinks', { count: s.activeLinks })}
        {s.lastMailedOn ? ` · ${t('ownerReport.card.lastMailed', { date: formatDateTime(s.lastMailedOn) })}` : ''}
      </Text>
      <Group gap="xs">
        <Button size="xs" onClick={() => make.mutate()} loading={make.isPending} data-testid="owner-report-make">
          {t('ownerReport.card.makeLink')}
        </Button>
        <Button size="xs" variant="light" onClick={() => send.mutate()} loading={send.isPending} disabled={!s.owners.some((o) => o.email)} data-testid="owner-report-send">
          {t('ownerReport.card.send')}
        </Button>
        {s.activeLinks > 0 && (
          <Button size="xs" variant="subtle" color="red" onClick={askRevoke} loading={revoke.isPending} data-testid="owner-report-revoke">
            {t('ownerReport.card.revoke')}
          </Button>
        )}
      </Group>
      {url && <LinkShown url={url} />}
      <Switch
        label={t('ownerReport.card.monthly')}
        checked={s.monthly}
        disabled={monthly.isPending}
        onChange={(e) => monthly.mutate(e.currentTarget.checked)}
        data-testid="owner-report-monthly"
      />
      <SharedComments s={s} begin={begin} put={put} settle={settle} />
    </>
  );
}

function LinkShown({ url }: { url: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={6} data-testid="owner-report-shown">
      <Alert color="yellow" p="xs">
        <Text size="sm">{t('ownerReport.card.shown.once')}</Text>
      </Alert>
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <TextInput label={t('ownerReport.card.shown.address')} value={url} readOnly flex={1} onFocus={(e) => e.currentTarget.select()} data-testid="owner-report-url" />
        <CopyButton value={url}>
          {({ copied, copy }) => (
            <Button variant="light" color={copied ? 'teal' : undefined} onClick={copy} data-testid="owner-report-copy">
              {copied ? t('ownerReport.card.shown.copied') : t('ownerReport.card.shown.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

function SharedComments({ s, begin, put, settle }: { s: TOwnerReportState } & NewestAnswer) {
  const { t } = useTranslation();
  const lines = s.viewings.filter((v) => v.comment || v.shared);
  const share = useMutation({
    mutationFn: (v: { line: TOwnerReportViewingLine; on: boolean }) => shareWithOwner(s.objectId, v.line.viewingId, v.on),
    // Ticked at once; the server's answer (or, refused, the state as it was) follows.
    onMutate: async (v) => {
      const n = await begin();
      put(n, { ...s, viewings: s.viewings.map((l) => (l.viewingId === v.line.viewingId ? { ...l, shared: v.on ? l.comment : null } : l)) });
      return n;
    },
    onSuccess: (r, _v, n) => put(n, r),
    onSettled: settle,
    onError: (e, _v, n) => (n !== undefined && put(n, s), onError(e)),
  });
  return (
    <Stack gap={4} data-testid="owner-report-comments">
      <Text size="sm" fw={600}>
        {t('ownerReport.card.comments')}
      </Text>
      {lines.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('ownerReport.card.noComments')}
        </Text>
      )}
      {lines.map((v) => (
        <Checkbox
          key={v.viewingId}
          size="xs"
          checked={v.shared !== null}
          disabled={share.isPending || !v.comment}
          onChange={(e) => share.mutate({ line: v, on: e.currentTarget.checked })}
          label={`${formatDate(v.date)} · ${v.shared ?? v.comment ?? ''}`}
          description={t('ownerReport.card.share')}
          data-testid="owner-report-share"
        />
      ))}
    </Stack>
  );
}
