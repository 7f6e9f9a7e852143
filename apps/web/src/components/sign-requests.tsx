// A record's document sent for signature by link (decision 086): the dialog that sends it (signer,
// e-mail, language; the record's parties to choose from, the first with an e-mail by default), and
// the requests with their status and Revoke.
import { Badge, Button, Group, Modal, NativeSelect, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { confirmAction } from './confirm-action.tsx';
import { useQuery, useQueryClient, queryOptions } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { CULTURES, type TCulture } from '@crm/contract/constants';
import { SIGN_REQUEST } from '@crm/contract/resources';
import type { TDocSource, TSigner, TSignRequest, TSignStatus } from '@crm/contract';
import { IconFile } from './icons.ts';
import { FileLinks } from './file-links.tsx';
import { call } from '../lib/api.ts';
import { showBanner } from '../lib/banner.ts';
import { describeError } from '../lib/errors.ts';
import { formatDateTime } from '../lib/format.ts';
import { currentCulture } from '../lib/i18n.ts';
import { useGuardedMutation } from '../lib/use-guarded-mutation.ts';

const LANGUAGE_KEY: Record<TCulture, string> = { el: 'lang.el', en: 'lang.en-UK', ru: 'lang.ru' };
const STATUS_COLOR: Record<TSignStatus, string> = { sent: 'blue', signed: 'green', voided: 'orange', expired: 'gray', revoked: 'gray' };

const signRequestsQuery = (source: TDocSource, id: number, dealId?: number) =>
  queryOptions({
    queryKey: ['sign-requests', source, id, dealId ?? null] as const,
    queryFn: ({ signal }) => call(SIGN_REQUEST.calls.list, { query: { source, id, ...(dealId ? { dealId } : {}) } }, { signal }),
  });

/**
 * "Send for signature" and the record's requests (each with its status; Revoke while it may be
 * signed). `dealId`: the handover protocol of a deal's property, signed by the deal's parties.
 */
export function SignRequests({ source, id, title, dealId }: { source: TDocSource; id: number; title: string; dealId?: number }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const q = useQuery(signRequestsQuery(source, id, dealId));
  const [open, setOpen] = useState(false);
  const items = q.data?.items ?? [];
  const reload = () => {
    void client.invalidateQueries({ queryKey: ['sign-requests', source, id] });
    // A signed copy lands among the record's files.
    void client.invalidateQueries({ queryKey: ['files'] });
  };
  const revoke = (r: TSignRequest) =>
    confirmAction(t, { title: t('signing.ui.revoke'), text: t('signing.ui.revokeConfirm'), confirm: t('signing.ui.revoke'), testId: 'sign-revoke-confirm', onConfirm: async () => {
        try {
          await call(SIGN_REQUEST.calls.revoke, { body: { id: r.id, version: r.version } });
          showBanner('success', t('signing.ui.revoked'));
        } catch (e) {
          const d = describeError(e);
          showBanner(d.type, d.message);
        }
        reload();
      },
    });
  return (
    <Stack gap={4}>
      <Group gap={6}>
        <Button size="compact-sm" variant="light" leftSection={<IconFile size={14} />} disabled={q.isPending} onClick={() => setOpen(true)} data-testid="sign-send-open">
          {t('signing.ui.send')}
        </Button>
      </Group>
      {items.length > 0 && (
        <Stack gap={2} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('signing.ui.requests')} data-testid="sign-requests">
          {items.map((r) => (
            <Group component="li" key={r.id} gap={6} wrap="wrap" data-testid="sign-request" data-status={r.status}>
              <Badge size="sm" variant="light" color={STATUS_COLOR[r.status]} tt="none">
                {t(`signing.status.${r.status}`)}
              </Badge>
              <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
                {t('signing.ui.row', { name: r.signedName ?? r.signerName, email: r.signerEmail, date: formatDateTime(r.sentOn) })}
              </Text>
              {r.signedFile && <FileLinks files={[r.signedFile]} />}
              {r.status === 'sent' && (
                <Button size="compact-xs" variant="subtle" color="red" onClick={() => revoke(r)} data-testid="sign-revoke">
                  {t('signing.ui.revoke')}
                </Button>
              )}
            </Group>
          ))}
        </Stack>
      )}
      {/* Opened once the requests are read: the dialog starts from the default signer they name. */}
      {open && <SendDialog source={source} id={id} dealId={dealId} title={title} signers={q.data?.signers ?? []} onClose={() => setOpen(false)} onSent={reload} />}
    </Stack>
  );
}

const OTHER = 'other';

function SendDialog(props: { source: TDocSource; id: number; dealId?: number; title: string; signers: TSigner[]; onClose: () => void; onSent: () => void }) {
  const { source, id, dealId, title, signers, onClose, onSent } = props;
  const { t } = useTranslation();
  const first = signers[0];
  const [who, setWho] = useState(first ? String(first.accountId) : OTHER);
  const [name, setName] = useState(first?.name ?? '');
  const [email, setEmail] = useState(first?.email ?? '');
  const pick = (value: string) => {
    setWho(value);
    const s = signers.find((x) => String(x.accountId) === value);
    setName(s?.name ?? '');
    setEmail(s?.email ?? '');
  };
  const [culture, setCulture] = useState<TCulture>(currentCulture());
  const [link, setLink] = useState<string | null>(null);
  const send = useGuardedMutation({
    mutationFn: () => call(SIGN_REQUEST.calls.send, { body: { source, id, culture, name, email, ...(dealId ? { dealId } : {}) } }),
    meta: { handlesErrors: true },
    onSuccess: (sent) => {
      setLink(sent.url);
      showBanner('success', sent.message);
      onSent();
    },
    onError: (e) => {
      const d = describeError(e);
      showBanner(d.type, d.message);
    },
  });
  return (
    <Modal opened onClose={onClose} title={`${t('signing.ui.dialogTitle')}: ${title}`} closeButtonProps={{ 'aria-label': t('common.close') }} data-testid="sign-send-dialog">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('signing.ui.help')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('signing.simpleSignature')}
        </Text>
        {signers.length > 0 && (
          <NativeSelect
            label={t('signing.ui.signer')}
            value={who}
            onChange={(e) => pick(e.currentTarget.value)}
            data={[
              ...signers.map((s) => ({ value: String(s.accountId), label: `${s.name} (${t(`signing.ui.role.${s.role}`)}): ${s.email ?? t('signing.ui.noEmail')}` })),
              { value: OTHER, label: t('signing.ui.otherSigner') },
            ]}
            data-testid="sign-signer"
          />
        )}
        <TextInput label={t('signing.ui.signerName')} value={name} onChange={(e) => setName(e.currentTarget.value)} required maxLength={200} data-testid="sign-signer-name" />
        <TextInput label={t('signing.ui.signerEmail')} type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} required maxLength={254} data-testid="sign-signer-email" />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="sign-language-label">
            {t('doctemplates.ui.documentLanguage')}
          </Text>
          <SegmentedControl aria-labelledby="sign-language-label" value={culture} onChange={(v) => setCulture(v as TCulture)} data={CULTURES.map((c) => ({ value: c, label: t(LANGUAGE_KEY[c]) }))} data-testid="sign-language" />
        </Stack>
        {link ? (
          <TextInput label={t('signing.ui.link')} value={link} readOnly onFocus={(e) => e.currentTarget.select()} data-testid="sign-link" />
        ) : (
          <Group>
            <Button loading={send.isPending} disabled={name.trim().length < 2 || !email.trim()} onClick={() => send.mutate()} data-testid="sign-send">
              {t('signing.ui.sendButton')}
            </Button>
          </Group>
        )}
      </Stack>
    </Modal>
  );
}
