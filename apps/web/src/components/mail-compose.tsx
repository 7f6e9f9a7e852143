import { Alert, Button, Group, Loader, Modal, Select, Stack, TagsInput, Text, Textarea, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import type { TMailbox, TMailDraft } from '@crm/contract';
import { MAIL, MAILBOX } from '@crm/contract/resources';
import { ApiError, call } from '../lib/api.ts';
import { showBanner } from '../lib/banner.ts';
import { describeError } from '../lib/errors.ts';
import { isOfficeAdmin, useSession } from '../lib/session.ts';
import { useGuardedMutation } from '../lib/use-guarded-mutation.ts';
import { useMedia } from '../lib/first-paint.ts';
import { activityKeys } from './activities/api.ts';
import { FailureAlert } from './failure-alert.tsx';

/** A record whose files an attachment can be saved to (an account, a property). */
export type TMailOf = { accountId: number } | { objectId: number };
/** A record with a thread and new mail: an account, a property, a lead (its thread), a deal (its parties' and its property's mail). */
export type TMailRecord = TMailOf | { leadId: number } | { dealId: number };

/** The one record's id as a query ({ accountId } and so on), nothing else. */
export const recordQuery = (of: TMailRecord): TMailRecord =>
  'accountId' in of ? { accountId: of.accountId } : 'objectId' in of ? { objectId: of.objectId } : 'leadId' in of ? { leadId: of.leadId } : { dealId: of.dealId };

const ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The mailbox a new mail is sent from at first: an agent's own, else the office's shared one (an office admin: the shared one). */
function firstMailbox(boxes: TMailbox[], officeAdmin: boolean): TMailbox | undefined {
  const shared = boxes.find((b) => b.ownerId === null);
  const own = boxes.find((b) => b.ownerId !== null);
  return officeAdmin ? (shared ?? own) : (own ?? shared);
}

/**
 * A new mail from an account's, a property's, a lead's or a deal's view (issue 46, decision 089): from
 * a mailbox the writer may use that has an outgoing server, to the record's addresses, optionally started from one
 * of the agency's texts in the recipient's language. The mailbox's signature is put under it by the server.
 */
export function MailCompose({ of, onClose }: { of: TMailRecord; onClose: () => void }) {
  const { t } = useTranslation();
  const phone = useMedia('(max-width: 48em)', false);
  const session = useSession();
  const qc = useQueryClient();
  const query = recordQuery(of);
  const draft = useQuery({ queryKey: ['mail', 'draft', query], queryFn: ({ signal }) => call(MAIL.calls.draft, { query }, { signal }) });
  const boxes = useQuery({ queryKey: ['mailboxes'], queryFn: ({ signal }) => call(MAILBOX.calls.list, {}, { signal }) });
  const senders = (boxes.data?.items ?? []).filter((b) => b.smtpHost);
  const ready = draft.data && boxes.data;
  return (
    <Modal opened onClose={onClose} size="xl" fullScreen={phone} title={t('mailbox.newMail')} closeButtonProps={{ 'aria-label': t('common.close') }}>
      {(draft.isError || boxes.isError) && <FailureAlert failure={draft.error ?? boxes.error} testId="mail-compose-error" />}
      {!ready && !draft.isError && !boxes.isError && <Loader size="sm" />}
      {ready && !senders.length && (
        <Alert color="yellow" data-testid="mail-compose-no-mailbox">
          {t('mailbox.compose.noMailbox')}
        </Alert>
      )}
      {ready && senders.length > 0 && (
        <ComposeForm
          draft={draft.data}
          senders={senders}
          first={firstMailbox(senders, isOfficeAdmin(session))!}
          of={of}
          onSent={() => {
            showBanner('success', t('mailbox.compose.sent'));
            void qc.invalidateQueries({ queryKey: ['mail', 'list'] });
            // The record's timeline (its activities and mail together) shows it too.
            void qc.invalidateQueries({ queryKey: activityKeys.all });
            onClose();
          }}
          onCancel={onClose}
        />
      )}
    </Modal>
  );
}

type FormProps = { draft: TMailDraft; senders: TMailbox[]; first: TMailbox; of: TMailRecord; onSent: () => void; onCancel: () => void };

function ComposeForm({ draft, senders, first, of, onSent, onCancel }: FormProps) {
  const { t } = useTranslation();
  const [mailboxId, setMailboxId] = useState(String(first.id));
  const [to, setTo] = useState<string[]>(draft.to.map((a) => a.address));
  const [cc, setCc] = useState<string[]>([]);
  const [template, setTemplate] = useState<string | null>(null);
  const [subject, setSubject] = useState('');
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const pick = (kind: string | null) => {
    setTemplate(kind);
    const x = draft.templates.find((d) => d.kind === kind);
    if (x) {
      setSubject(x.subject);
      setText(x.text);
    }
  };
  const addresses = (list: string[]) => [...new Set(list.map((a) => a.trim().toLowerCase()).filter((a) => ADDRESS.test(a)))];
  const send = useGuardedMutation({
    mutationFn: () => call(MAIL.calls.send, { body: { mailboxId: Number(mailboxId), to, cc, subject, text, ...of } }),
    meta: { handlesErrors: true },
    onSuccess: onSent,
    onError: (e) => {
      if (e instanceof ApiError && e.status === 400) setErrors(e.fieldErrors);
      setFailure(describeError(e).message);
    },
  });
  return (
    <Stack gap="sm" data-testid="mail-compose">
      <FailureAlert failure={failure} testId="mail-compose-failure" />
      <Select
        label={t('mailbox.compose.from')}
        data={senders.map((b) => ({ value: String(b.id), label: `${b.name} <${b.address}>` }))}
        value={mailboxId}
        onChange={(v) => v && setMailboxId(v)}
        allowDeselect={false}
        data-testid="mail-compose-from"
      />
      <TagsInput label={t('mailbox.compose.to')} description={t('mailbox.compose.addressHint')} value={to} onChange={(v) => setTo(addresses(v))} error={errors.to} splitChars={[',', ' ', ';']} data-testid="mail-compose-to" />
      <TagsInput label={t('mailbox.compose.cc')} value={cc} onChange={(v) => setCc(addresses(v))} error={errors.cc} splitChars={[',', ' ', ';']} data-testid="mail-compose-cc" />
      <Select
        label={t('mailbox.compose.template')}
        description={t('mailbox.compose.templateHint', { language: t(`mailbox.lang.${draft.culture}`) })}
        placeholder={t('mailbox.compose.templatePlaceholder')}
        data={draft.templates.map((x) => ({ value: x.kind, label: t(`doctemplates.ui.kind.${x.kind}`) }))}
        value={template}
        onChange={pick}
        clearable
        data-testid="mail-compose-template"
      />
      <TextInput label={t('mailbox.compose.subject')} required value={subject} onChange={(e) => setSubject(e.currentTarget.value)} error={errors.subject} maxLength={300} data-testid="mail-compose-subject" />
      <Textarea
        label={t('mailbox.compose.text')}
        required
        autosize
        minRows={8}
        maxRows={20}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        error={errors.text}
        maxLength={20000}
        data-testid="mail-compose-text"
      />
      <Text size="xs" c="dimmed">
        {t('mailbox.compose.signatureNote')}
      </Text>
      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button loading={send.isPending} disabled={!to.length || !subject.trim() || !text.trim()} onClick={() => send.mutate()} data-testid="mail-compose-send">
          {t('mailbox.send')}
        </Button>
      </Group>
    </Stack>
  );
}
