import { Anchor, Button, Group, Loader, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import type { TMailMessage } from '@crm/contract';
import { MAIL, urlOf } from '@crm/contract/resources';
import { call } from '../lib/api.ts';
import { showBanner } from '../lib/banner.ts';
import { describeError } from '../lib/errors.ts';
import { useGuardedMutation } from '../lib/use-guarded-mutation.ts';
import { useMedia } from '../lib/first-paint.ts';
import { formatDateTime, formatSize } from '../lib/format.ts';
import { objectKeys } from '../lib/query-keys.ts';
import type { TMailRecord } from './mail-compose.tsx';
import { activityKeys } from './activities/api.ts';
import { MailNewContact } from './mail-new-contact.tsx';
import { FailureAlert } from './failure-alert.tsx';

export const who = (a: { name: string; address: string } | null) => (a ? (a.name ? `${a.name} <${a.address}>` : a.address) : '');

/**
 * The frame's document. Remote pictures stay blocked (the server kept their addresses apart, as
 * data-blocked-src) until the reader asks; then each is fetched through the CRM (which asks the
 * sender's server) and put in as a data: address, so the frame still loads nothing from outside.
 * `images[n]` is the n-th picture's data: address, or null when it could not be had.
 */
export function mailFrameDoc(html: string, images: (string | null)[] | null): string {
  let n = 0;
  const body = images ? html.replace(/\sdata-blocked-src="[^"]*"/g, (m) => (images[n++] ? ` src="${images[n - 1]}"` : m)) : html;
  return `<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"><base target="_blank">${body}`;
}

const asDataUrl = (b: Blob) =>
  new Promise<string>((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error);
    r.readAsDataURL(b);
  });

/** The pictures of one message the server fetches at most (the rest stay blocked), and how many at a time. */
const MAX_IMAGES = 50;
const AT_ONCE = 4;

/** The message's remote pictures, fetched through the CRM once the reader asks (null before), a few at a time. */
function useRemoteImages(id: number, count: number, asked: boolean) {
  return useQuery({
    queryKey: ['mail', id, 'images'],
    enabled: asked && count > 0,
    staleTime: Infinity,
    queryFn: async ({ signal }) => {
      const out: (string | null)[] = [];
      const wanted = Math.min(count, MAX_IMAGES);
      for (let from = 0; from < wanted; from += AT_ONCE) {
        const batch = Array.from({ length: Math.min(AT_ONCE, wanted - from) }, (_, k) =>
          call(MAIL.calls.image, { params: { id, n: from + k } }, { blob: true, signal })
            .then(asDataUrl)
            .catch(() => null),
        );
        out.push(...(await Promise.all(batch)));
      }
      return out;
    },
  });
}

/**
 * A message as read in the CRM: its HTML (sanitised by the server when it was synced) in a frame
 * that runs nothing and reaches nothing (sandboxed: no scripts, no forms, its own origin; the
 * server has taken away remote pictures' addresses), else its text; its attachments as downloads.
 */
export function MailMessage({ id, of, onClose }: { id: number; of?: TMailRecord; onClose: () => void }) {
  const { t } = useTranslation();
  const phone = useMedia('(max-width: 48em)', false);
  const q = useQuery({ queryKey: ['mail', id], queryFn: ({ signal }) => call(MAIL.calls.view, { params: { id } }, { signal }) });
  const [replying, setReplying] = useState<'one' | 'all' | null>(null);
  const [showImages, setShowImages] = useState(false);
  const m = q.data;
  // "New contact?" stays once offered: the message read again after the client is added has no offer, and the form says it was added.
  const [offer, setOffer] = useState<TMailMessage['newContact']>(null);
  if (m?.newContact && offer === null) setOffer(m.newContact);
  const images = useRemoteImages(id, m?.remoteImages ?? 0, showImages);
  const failed = images.data?.filter((x) => x === null).length ?? 0;
  return (
    <Modal opened onClose={onClose} size="xl" fullScreen={phone} title={m ? m.subject || t('mailbox.msg.noSubject') : ''} closeButtonProps={{ 'aria-label': t('common.close') }}>
      {q.isError && <FailureAlert failure={q.error} testId="mail-error" />}
      {!m && !q.isError && <Loader size="sm" />}
      {m && (
        <Stack gap="xs" data-testid="mail-message">
          <Text size="sm">
            <b>{t('mailbox.msg.from')}:</b> {who(m.from)}
          </Text>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            <b>{t('mailbox.msg.to')}:</b> {m.to.map(who).join(', ')}
          </Text>
          {m.cc.length > 0 && (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              <b>{t('mailbox.msg.cc')}:</b> {m.cc.map(who).join(', ')}
            </Text>
          )}
          <Text size="sm">
            <b>{t('mailbox.msg.date')}:</b> {formatDateTime(m.date)}
          </Text>
          {offer && <MailNewContact mailId={m.id} contact={offer} />}
          {m.remoteImages > 0 && !showImages && (
            <Group gap="xs" wrap="wrap">
              <Text size="xs" c="dimmed" data-testid="mail-images-blocked">
                {t('mailbox.msg.imagesBlocked', { count: m.remoteImages })}
              </Text>
              <Button size="compact-xs" variant="subtle" title={t('mailbox.msg.showImagesHint')} onClick={() => setShowImages(true)} data-testid="mail-show-images">
                {t('mailbox.msg.showImages')}
              </Button>
            </Group>
          )}
          {showImages && images.isFetching && <Loader size="xs" aria-label={t('mailbox.msg.showImages')} />}
          {failed > 0 && (
            <Text size="xs" c="dimmed" data-testid="mail-images-failed">
              {t('mailbox.msg.imagesFailed', { count: failed })}
            </Text>
          )}
          {m.html ? (
            <iframe
              title={t('mailbox.msg.frameTitle')}
              sandbox=""
              srcDoc={mailFrameDoc(m.html, images.data ?? null)}
              style={{ width: '100%', minHeight: 320, border: '1px solid var(--mantine-color-gray-3)', borderRadius: 4, background: 'white' }}
              data-testid="mail-html"
            />
          ) : (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="mail-text">
              {m.text}
            </Text>
          )}
          {m.attachments.length > 0 && (
            <Stack gap={2}>
              <Text size="sm" fw={600}>
                {t('mailbox.msg.attachments')}
              </Text>
              {m.attachments.map((a) => (
                <Group key={a.id} gap="xs" wrap="nowrap" data-testid="mail-attachment-row">
                  <Anchor href={urlOf(MAIL.calls.attachment, { params: { id: a.id, name: a.name } })} download={a.name} size="sm" data-testid="mail-attachment" style={{ overflowWrap: 'anywhere' }}>
                    {a.name} ({formatSize(a.size)})
                  </Anchor>
                  {of && <SaveAttachment id={a.id} name={a.name} of={of} />}
                </Group>
              ))}
            </Stack>
          )}
          {replying ? (
            <ReplyForm id={m.id} all={replying === 'all'} onDone={() => setReplying(null)} />
          ) : (
            <Group gap="xs">
              <Button size="xs" variant="light" onClick={() => setReplying('one')} data-testid="mail-reply">
                {t('mailbox.reply')}
              </Button>
              {m.to.length + m.cc.length > 1 && (
                <Button size="xs" variant="light" onClick={() => setReplying('all')} data-testid="mail-reply-all">
                  {t('mailbox.replyAll')}
                </Button>
              )}
            </Group>
          )}
        </Stack>
      )}
    </Modal>
  );
}

/**
 * An attachment copied into the files of the record the mail is read on, in one click (a second click
 * is told it is there already): on a lead, its client's files; on a deal, its property's (decision 095).
 */
function SaveAttachment({ id, name, of }: { id: number; name: string; of: TMailRecord }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  // Read on a lead or a deal, the files are another record's: the button, its hint and the answer name whose.
  const elsewhere = 'leadId' in of ? 'Client' : 'dealId' in of ? 'Property' : null;
  const save = useGuardedMutation({
    mutationFn: () => call(MAIL.calls.saveAttachment, { params: { id }, body: of }),
    meta: { handlesErrors: true },
    onSuccess: (r) => {
      const said = elsewhere
        ? t(r.alreadySaved ? 'mailbox.attachment.alreadyTo' : 'mailbox.attachment.savedTo', { name: r.name, record: r.savedTo.name })
        : t(r.alreadySaved ? 'mailbox.attachment.already' : 'mailbox.attachment.saved', { name: r.name });
      showBanner(r.alreadySaved ? 'warning' : 'success', said);
      void qc.invalidateQueries({ queryKey: ['files'] });
      if (r.savedTo.objectId != null) void qc.invalidateQueries({ queryKey: objectKeys.all });
    },
    onError: (e) => {
      const d = describeError(e);
      showBanner(d.type, d.message);
    },
  });
  return (
    <Button
      size="compact-xs"
      variant="subtle"
      loading={save.isPending}
      onClick={() => save.mutate()}
      title={t(elsewhere === 'Client' ? 'mailbox.attachment.saveHintClient' : elsewhere === 'Property' ? 'mailbox.attachment.saveHintProperty' : 'mailbox.attachment.saveHint', { name })}
      data-testid="mail-attachment-save"
    >
      {t(elsewhere === 'Client' ? 'mailbox.attachment.saveToClient' : elsewhere === 'Property' ? 'mailbox.attachment.saveToProperty' : 'mailbox.attachment.save')}
    </Button>
  );
}

/** A reply (or a reply to all) typed under the message, sent from its mailbox; the original is quoted below it by the server. */
function ReplyForm({ id, all, onDone }: { id: number; all: boolean; onDone: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const send = useGuardedMutation({
    mutationFn: () => call(MAIL.calls.reply, { params: { id }, body: { text, all } }),
    onSuccess: () => {
      showBanner('success', t('mailbox.sent'));
      void qc.invalidateQueries({ queryKey: ['mail', 'list'] });
      // The record's timeline (its activities and mail together) shows the reply too.
      void qc.invalidateQueries({ queryKey: activityKeys.all });
      onDone();
    },
    onError: (e) => setError(describeError(e).message),
  });
  return (
    <Stack gap="xs" data-testid="mail-reply-form">
      <FailureAlert failure={error} testId="mail-reply-error" />
      <Textarea label={t('mailbox.replyText')} autosize minRows={4} maxRows={12} value={text} onChange={(e) => setText(e.currentTarget.value)} data-testid="mail-reply-text" />
      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={onDone}>
          {t('common.cancel')}
        </Button>
        <Button loading={send.isPending} disabled={!text.trim()} onClick={() => send.mutate()} data-testid="mail-reply-send">
          {t('mailbox.send')}
        </Button>
      </Group>
    </Stack>
  );
}
