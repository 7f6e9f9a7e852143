import { test } from '@playwright/test';
import { imapOf, startDovecot, type Dovecot } from '../apps/server/test/dovecot.ts';
import { startSmtpSink } from '../apps/server/test/smtp-sink.ts';

export type MailServers = { dovecot: Dovecot; smtp: Awaited<ReturnType<typeof startSmtpSink>> };

/**
 * The mail a spec's agency talks to: its own Dovecot (mailboxes, their Sent folders, mail put there
 * by IMAP APPEND) and, with `smtp`, an SMTP server that keeps what it receives. Started before the
 * spec's tests and stopped after them; read its members inside a test.
 */
export function useMailServers(opts: { smtp: boolean } = { smtp: true }): MailServers {
  const servers = {} as Partial<MailServers>;
  test.beforeAll(async () => {
    servers.dovecot = await startDovecot();
    if (opts.smtp) servers.smtp = await startSmtpSink();
  });
  test.afterAll(async () => {
    await servers.smtp?.close();
    await servers.dovecot?.stop();
  });
  return servers as MailServers;
}

/** The messages in the Sent folder of the spec's Dovecot (what the CRM kept there): each one's Message-ID and addressees. */
export async function sentMessages(d: Dovecot): Promise<{ messageId: string; to: string[] }[]> {
  const imap = await imapOf(d);
  const lock = await imap.getMailboxLock('Sent');
  const sent: { messageId: string; to: string[] }[] = [];
  for await (const m of imap.fetch('1:*', { envelope: true })) sent.push({ messageId: m.envelope?.messageId ?? '', to: (m.envelope?.to ?? []).map((a) => a.address ?? '') });
  lock.release();
  await imap.logout();
  return sent;
}

/** A mail's text with a PDF attached (`name`), as a mail program writes it: its lines after the headers given. */
export function withPdf(headers: string[], text: string, name: string): string[] {
  return [
    ...headers,
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary=b1',
    '',
    '--b1',
    'Content-Type: text/plain; charset=utf-8',
    '',
    text,
    '--b1',
    `Content-Type: application/pdf; name="${name}"`,
    `Content-Disposition: attachment; filename="${name}"`,
    'Content-Transfer-Encoding: base64',
    '',
    'JVBERi0xLjQKJcTl8uXrCg==',
    '--b1--',
    '',
  ];
}
