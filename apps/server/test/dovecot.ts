import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ImapFlow, type MessageEnvelopeObject } from 'imapflow';

/**
 * A private Dovecot (Debian's dovecot-imapd) for the mail tests: its own configuration, runtime
 * and Maildir in a temporary folder, one passwd-file user, IMAP in plain text on a free loopback
 * port; started in the foreground as this test's own child process and stopped by `stop()`.
 * Waits for the port to answer (no fixed sleep).
 */
export type Dovecot = {
  host: string;
  port: number;
  user: string;
  password: string;
  /** The user's Maildir (a test may touch Dovecot's files, e.g. its UID list). */
  maildir: string;
  stop: () => Promise<void>;
};

export const DOVECOT_BIN = '/usr/sbin/dovecot';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitForGreeting(port: number, child: ChildProcess, log: string, deadlineMs = 20000): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`dovecot exited (${child.exitCode}): ${fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : ''}`);
    const ok = await new Promise<boolean>((resolve) => {
      const sock = net.connect(port, '127.0.0.1');
      sock.once('data', (d) => {
        sock.destroy();
        resolve(d.toString().startsWith('* OK'));
      });
      sock.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`dovecot did not answer on port ${port}: ${fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startDovecot(): Promise<Dovecot> {
  if (!fs.existsSync(DOVECOT_BIN)) throw new Error(`${DOVECOT_BIN} is missing: apt-get install -y dovecot-imapd (.ci/run installs it)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-dovecot-'));
  fs.chmodSync(dir, 0o755);
  const root = process.getuid?.() === 0;
  // Dovecot gives no mail access to uid 0: as root, the mail belongs to nobody.
  const uid = root ? 65534 : process.getuid!();
  const gid = root ? 65534 : process.getgid!();
  const home = path.join(dir, 'home');
  const maildir = path.join(home, 'Maildir');
  fs.mkdirSync(maildir, { recursive: true });
  if (root) {
    fs.chownSync(home, uid, gid);
    fs.chownSync(maildir, uid, gid);
  }
  const user = 'agent';
  const password = randomBytes(9).toString('base64url');
  fs.writeFileSync(path.join(dir, 'users'), `${user}:{PLAIN}${password}:::::\n`, { mode: 0o644 });
  const port = await freePort();
  const log = path.join(dir, 'dovecot.log');
  const me = os.userInfo().username;
  const conf = `
base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = crm-test-${path.basename(dir)}
log_path = ${log}
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
# A refused sign-in answered at once (the tests try wrong passwords on purpose).
auth_failure_delay = 0

first_valid_uid = ${Math.min(uid, 500)}
mail_location = maildir:${maildir}
default_login_user = ${root ? 'dovenull' : me}
default_internal_user = ${root ? 'dovecot' : me}
${root ? '' : `default_internal_group = ${os.userInfo().username}`}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users
}
userdb {
  driver = static
  args = uid=${uid} gid=${gid} home=${home}
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
service imap-login {
  chroot =
}
namespace inbox {
  inbox = yes
  separator = /
  mailbox Sent {
    auto = create
    special_use = \\Sent
  }
}
`;
  fs.writeFileSync(path.join(dir, 'dovecot.conf'), conf);
  const child = spawn(DOVECOT_BIN, ['-F', '-c', path.join(dir, 'dovecot.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  try {
    await waitForGreeting(port, child, log);
  } catch (e) {
    child.kill('SIGKILL');
    throw new Error(`${(e as Error).message}\n${stderr}`);
  }
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { host: '127.0.0.1', port, user, password, maildir, stop };
}

/** An IMAP client signed in as the test user (the caller logs out). */
export async function imapOf(d: Dovecot): Promise<ImapFlow> {
  const c = new ImapFlow({ host: d.host, port: d.port, secure: false, auth: { user: d.user, pass: d.password }, logger: false });
  await c.connect();
  return c;
}

/** What `read` makes of each message's envelope in a folder of the test user (the Sent folder by default), in the folder's order. */
export async function folderEnvelopes<T>(d: Dovecot, read: (envelope: MessageEnvelopeObject | undefined) => T, folder = 'Sent'): Promise<T[]> {
  const c = await imapOf(d);
  const lock = await c.getMailboxLock(folder);
  const out: T[] = [];
  try {
    for await (const m of c.fetch('1:*', { envelope: true })) out.push(read(m.envelope));
  } finally {
    lock.release();
    await c.logout();
  }
  return out;
}

/**
 * Puts a raw mail (lines ending LF or CRLF) into a folder of the test user, made if missing, as a
 * delivery would (IMAP APPEND): with flags and an arrival date when given.
 */
export async function appendMail(d: Dovecot, raw: string, opts: { folder?: string; flags?: string[]; date?: Date } = {}): Promise<void> {
  const folder = opts.folder ?? 'INBOX';
  const c = await imapOf(d);
  try {
    if (folder !== 'INBOX') await c.mailboxCreate(folder).catch(() => undefined);
    await c.append(folder, raw.replace(/\r?\n/g, '\r\n'), opts.flags, opts.date);
  } finally {
    await c.logout();
  }
}

/** The settings that connect a mailbox to this Dovecot (IMAP in plain text, no SMTP), with `over` changed. */
export function mailboxSettings(d: Dovecot, over: Record<string, unknown> = {}) {
  return {
    name: 'Office',
    address: 'info@agency.test',
    ownerId: null,
    imapHost: d.host,
    imapPort: d.port,
    imapTls: false,
    imapUser: d.user,
    imapPassword: d.password,
    imapFolder: 'INBOX',
    smtpHost: null,
    smtpPort: null,
    smtpTls: false,
    smtpUser: null,
    syncMonths: 6,
    active: true,
    ...over,
  };
}
