import net from 'node:net';
import tls from 'node:tls';
import { ImapFlow } from 'imapflow';
import nodemailer from 'nodemailer';
import type { TMailFailureStep } from '@crm/contract';

/** A mailbox's IMAP side, its password in clear (only ever in memory). */
export type ImapSettings = { host: string; port: number; tls: boolean; user: string; password: string; folder: string };
export type SmtpSettings = { host: string; port: number; tls: boolean; user: string | null; password: string | null };

/** A step of a connection that failed, with the server's or system's own words (never a password). */
export class MailStepError extends Error {
  constructor(
    readonly step: TMailFailureStep,
    message: string,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 15000;
const TLS_CODES = /^(ERR_SSL|ERR_TLS|EPROTO|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|HOSTNAME_MISMATCH|ERR_OSSL)/;

function codeOf(e: unknown): string {
  const err = e as { code?: unknown; cause?: { code?: unknown } };
  return String(err?.code ?? err?.cause?.code ?? '');
}

/** Step 1: the host answers on its port (a name that resolves, a port that is open). */
async function reachHost(host: string, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const sock = net.connect({ host, port, timeout: TIMEOUT_MS });
    sock.once('connect', () => {
      sock.destroy();
      resolve();
    });
    sock.once('timeout', () => {
      sock.destroy();
      reject(new MailStepError('host', `${host}:${port} did not answer within ${TIMEOUT_MS / 1000} s`));
    });
    sock.once('error', (e) => reject(new MailStepError('host', `${host}:${port}: ${codeOf(e) || e.message}`)));
  });
}

/** Step 2, for a TLS port: the handshake, with a certificate valid for the host. */
async function handshake(host: string, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const sock = tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, timeout: TIMEOUT_MS });
    sock.once('secureConnect', () => {
      sock.destroy();
      resolve();
    });
    sock.once('timeout', () => {
      sock.destroy();
      reject(new MailStepError('tls', `${host}:${port}: no TLS handshake within ${TIMEOUT_MS / 1000} s`));
    });
    sock.once('error', (e) => reject(new MailStepError('tls', `${host}:${port}: ${codeOf(e) || e.message}`)));
  });
}

/** `maxIdleTime`: how long one IDLE lasts before it is begun again (the IDLE watcher's connection). */
export function imapClient(s: ImapSettings, o: { maxIdleTime?: number } = {}): ImapFlow {
  return new ImapFlow({
    host: s.host,
    port: s.port,
    secure: s.tls,
    auth: { user: s.user, pass: s.password },
    logger: false,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: 5 * 60 * 1000,
    disableAutoIdle: true,
    maxIdleTime: o.maxIdleTime,
  });
}

/** Signs in to an IMAP server, each step named when it fails (host, TLS, sign-in). */
export async function connectImap(s: ImapSettings, o: { maxIdleTime?: number } = {}): Promise<ImapFlow> {
  await reachHost(s.host, s.port);
  if (s.tls) await handshake(s.host, s.port);
  const client = imapClient(s, o);
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (e) {
    const err = e as { authenticationFailed?: boolean; responseText?: string; message?: string };
    client.close();
    if (err.authenticationFailed) throw new MailStepError('signIn', err.responseText || 'authentication failed');
    const code = codeOf(e);
    if (TLS_CODES.test(code)) throw new MailStepError('tls', code);
    throw new MailStepError('other', err.responseText || err.message || code || 'connection failed');
  }
  return client;
}

/** Opens the folder (read-only), named as the failing step when it does not exist or cannot be read. */
export async function openFolder(client: ImapFlow, folder: string) {
  try {
    return await client.mailboxOpen(folder, { readOnly: true });
  } catch (e) {
    const err = e as { responseText?: string; message?: string };
    throw new MailStepError('folder', `${folder}: ${err.responseText || err.message || 'cannot be opened'}`);
  }
}

export type StepResult = { ok: boolean; step: TMailFailureStep | null; message: string | null };
const failed = (e: unknown): StepResult =>
  e instanceof MailStepError ? { ok: false, step: e.step, message: e.message } : { ok: false, step: 'other', message: (e as Error)?.message ?? String(e) };

export async function testImap(s: ImapSettings): Promise<StepResult> {
  let client: ImapFlow | undefined;
  try {
    client = await connectImap(s);
    await openFolder(client, s.folder);
    await client.logout().catch(() => {});
    return { ok: true, step: null, message: null };
  } catch (e) {
    client?.close();
    return failed(e);
  }
}

export function smtpTransport(s: SmtpSettings) {
  return nodemailer.createTransport({
    host: s.host,
    port: s.port,
    secure: s.tls,
    auth: s.user ? { user: s.user, pass: s.password ?? '' } : undefined,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: 60000,
    logger: false,
  });
}

export async function testSmtp(s: SmtpSettings): Promise<StepResult> {
  try {
    await reachHost(s.host, s.port);
    if (s.tls) await handshake(s.host, s.port);
    const transport = smtpTransport(s);
    try {
      await transport.verify();
    } catch (e) {
      const code = codeOf(e);
      const err = e as { response?: string; message?: string; originalCode?: string };
      if (code === 'EAUTH') throw new MailStepError('signIn', err.response || 'authentication failed');
      // A STARTTLS upgrade that failed (nodemailer's ESOCKET, the TLS error's own code kept beside it).
      if (TLS_CODES.test(code) || TLS_CODES.test(err.originalCode ?? '') || /\b(tls|ssl|certificate)\b/i.test(err.message ?? '')) throw new MailStepError('tls', err.message || code);
      throw new MailStepError('send', err.response || err.message || code);
    } finally {
      transport.close();
    }
    return { ok: true, step: null, message: null };
  } catch (e) {
    return failed(e);
  }
}
