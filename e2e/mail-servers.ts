import { test } from '@playwright/test';
import { startDovecot, type Dovecot } from '../apps/server/test/dovecot.ts';
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
