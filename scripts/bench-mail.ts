// npm run bench:mail — a mailbox of 10,000 messages synced into the CRM, measured (issue 46, decision 078).
//
//   npm run bench:mail [-- --messages 10000 --heavy 2000 --no-polling]
//
// Starts Debian's Dovecot on a free loopback port (as the mail tests do) and the app on an embedded
// PostgreSQL under DATA_DIR (default ./data/bench-mail, made afresh each run) or on DATABASE_URL.
// Delivers --messages mails of the last six months into the Maildir as a delivery agent does (one
// file each in new/, its time the arrival), plus a tenth as many older than the mailbox's window,
// from 600 senders of whom 300 are known accounts (one client with --heavy messages). Then, timed:
// the first sync after the mailbox is saved, while another client reads the health check and that
// client's thread every 100 ms (the app must stay responsive); the time from a new mail's delivery
// (IMAP APPEND) to its thread on the record, with IDLE (goal under 5 s), then with polling only
// (goal under 60 s; --no-polling leaves it out). Nothing is asserted: the figures are for the
// decision records and the issue's note.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { connectDb } from '../apps/server/src/db/client.ts';
import { accounts, users } from '../apps/server/src/db/schema/index.ts';
import { hashPassword } from '../apps/server/src/lib/passwords.ts';
import { appendMail, imapOf, mailboxSettings, startDovecot } from '../apps/server/test/dovecot.ts';
import { openBenchDatabase } from './generate-large.ts';

const root = path.resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? Number(argv[at + 1]) : fallback;
};
const MESSAGES = arg('messages', 10_000);
const HEAVY = Math.min(arg('heavy', 2_000), MESSAGES);
const OLDER = Math.floor(MESSAGES / 10);
const POLLING = !argv.includes('--no-polling');
const KNOWN = 300;
const SENDERS = 600;
const log = (line = '') => process.stdout.write(`${line}\n`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : 0;
};
const spread = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(0)} ms, p99 ${pct(xs, 99).toFixed(0)} ms, max ${Math.max(0, ...xs).toFixed(0)} ms (${xs.length} reads)`;

const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(root, 'data/bench-mail'));
if (!process.env.DATABASE_URL) fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });

log(`bench:mail — ${MESSAGES} messages in the window (${HEAVY} from one client), ${OLDER} older; ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const dovecot = await startDovecot();
const db = await openBenchDatabase({ dataDir, log: (m: string) => log(`  ${m}`) });
const handle = connectDb(db.url, 10);

// ---- The mail, delivered as a delivery agent writes a Maildir ----------------------------------
const rfcDate = (d: Date) => d.toUTCString().replace('GMT', '+0000');
const senderOf = (i: number) => (i < KNOWN ? `client${i}@example.gr` : `someone${i}@example.com`);
const SUBJECTS = ['Ερώτηση για το διαμέρισμα', 'Viewing on Saturday', 'Προσφορά για το ακίνητο', 'Documents for the notary', 'Ενοίκιο Νοεμβρίου', 'Вопрос по квартире'];
function mailOf(i: number, at: Date): string {
  const from = i < HEAVY ? senderOf(0) : senderOf(1 + (i % (SENDERS - 1)));
  const subject = `${SUBJECTS[i % SUBJECTS.length]} ${i}${i % 10 === 0 ? ` — ref ${String(100 + (i % 900)).padStart(4, '0')}` : ''}`;
  const html = i % 4 === 0;
  const body = `Καλησπέρα σας,\n\nμήνυμα ${i}: ${'Θα ήθελα περισσότερες πληροφορίες για το ακίνητο. '.repeat(1 + (i % 6))}\n\nΜε εκτίμηση,\nΠελάτης ${i}\n+30 69${String(10_000_000 + i).slice(0, 8)}\n`;
  const head = [`From: Client ${i} <${from}>`, 'To: Office <info@agency.test>', `Subject: =?UTF-8?B?${Buffer.from(subject).toString('base64')}?=`, `Message-ID: <bench-${i}@example.gr>`, `Date: ${rfcDate(at)}`, 'MIME-Version: 1.0'];
  if (!html) return [...head, 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: base64', '', Buffer.from(body).toString('base64')].join('\r\n');
  const b = `b${i}`;
  return [
    ...head,
    `Content-Type: multipart/alternative; boundary="${b}"`,
    '',
    `--${b}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from(body).toString('base64'),
    `--${b}`,
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from(`<p>${body.replace(/\n/g, '<br>')}</p><img src="https://tracker.example.com/p${i}.gif">`).toString('base64'),
    `--${b}--`,
    '',
  ].join('\r\n');
}
const owner = fs.statSync(path.dirname(dovecot.maildir));
const started = Date.now();
for (const sub of ['new', 'cur', 'tmp']) {
  fs.mkdirSync(path.join(dovecot.maildir, sub), { recursive: true });
  fs.chownSync(path.join(dovecot.maildir, sub), owner.uid, owner.gid);
}
const now = Date.now();
const SIX_MONTHS = 178 * 86_400_000;
for (let i = 0; i < MESSAGES + OLDER; i++) {
  // In the window: spread over the last ~six months; the rest a year back and more.
  const at = new Date(i < MESSAGES ? now - Math.floor(((i * 7919) % MESSAGES) / MESSAGES * SIX_MONTHS) - 60_000 : now - 400 * 86_400_000 - i * 60_000);
  const file = path.join(dovecot.maildir, 'new', `${Math.floor(at.getTime() / 1000)}.M${i}P${process.pid}.bench`);
  fs.writeFileSync(file, mailOf(i, at));
  fs.utimesSync(file, at, at);
  fs.chownSync(file, owner.uid, owner.gid);
}
log(`delivered ${MESSAGES + OLDER} files into the Maildir in ${seconds(Date.now() - started)}`);
{
  const t0 = Date.now();
  const c = await imapOf(dovecot);
  const status = await c.status('INBOX', { messages: true });
  await c.logout();
  log(`Dovecot indexed ${status ? status.messages : '?'} messages in ${seconds(Date.now() - t0)}`);
}

// ---- The agency: known senders, an admin, the app ---------------------------------------------
await handle.db.insert(accounts).values(Array.from({ length: KNOWN }, (_, i) => ({ firstName: 'Πελάτης', lastName: `Δοκιμαστικός ${i}`, isClient: true, emails: [senderOf(i)] })));
const heavy = Number(((await handle.db.execute(sql`select id from accounts where ${senderOf(0)} = any(emails)`)).rows[0] as { id: number }).id);
const email = `bench-mail-${Date.now()}@agency.test`;
await handle.db.insert(users).values({ email, username: email, passwordHash: await hashPassword('bench-mail-password', true), roles: ['admin'] });

/** The mailboxes' passwords' key of this run (the app refuses to keep a password without one). */
const MAIL_KEY = randomBytes(32).toString('hex');
async function startApp(env: Record<string, string>) {
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: db.url, LOG_LEVEL: 'warn', BACKUPS: 'false', DEMO_DATA: 'false', FIRST_PAINT: 'false', MAIL_SECRET_KEY: process.env.MAIL_SECRET_KEY ?? MAIL_KEY, ...env });
  const h = connectDb(db.url, 10, { timeZone: config.timeZone });
  const app = await buildApp({ config, db: h.db, serveWeb: false, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const login = await fetch(`${base}/api/authenticate/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: email, password: 'bench-mail-password' }) });
  const token = ((await login.json()) as { token: string }).token;
  const call = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${base}${url}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  return { base, call, token, pollSeconds: config.mailIn.pollSeconds, close: async () => (await app.close(), await h.close()) };
}

/** Reads `url` every 100 ms (a new read once the last answered) while `run` runs: the latencies. */
async function beside<T>(base: string, token: string, urls: string[], run: () => Promise<T>): Promise<{ result: T; reads: number[][] }> {
  const agent = new http.Agent({ keepAlive: true });
  const reads = urls.map(() => [] as number[]);
  let going = true;
  const polls = urls.map(async (url, k) => {
    while (going) {
      const t0 = performance.now();
      await new Promise<void>((resolve) => {
        http.get(`${base}${url}`, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
          res.resume();
          res.on('end', () => resolve());
        }).on('error', () => resolve());
      });
      reads[k]!.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  const result = await run();
  going = false;
  await Promise.all(polls);
  agent.destroy();
  return { result, reads };
}

const stored = async () => Number(((await handle.db.execute(sql`select count(*)::int as n from mail_messages`)).rows[0] as { n: number }).n);
async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

// ---- The first sync -----------------------------------------------------------------------------
const first = await startApp({});
const thread = `/api/mail?accountId=${heavy}&perPage=20`;
const sync = await beside(first.base, first.token, ['/api/health', thread], async () => {
  const t0 = Date.now();
  await first.call('POST', '/api/mailboxes/update', mailboxSettings(dovecot, { syncMonths: 6 }));
  let last = -1;
  let same = 0;
  // Done when every message of the window is stored and nothing more arrives for 3 s.
  await until(async () => {
    const n = await stored();
    same = n === last ? same + 1 : 0;
    last = n;
    return n >= MESSAGES && same >= 60;
  }, 30 * 60_000);
  return { ms: Date.now() - t0 - 3000, n: last };
});
log(`first sync: ${sync.result.n} messages stored (expected ${MESSAGES}; the ${OLDER} older left out) in ${seconds(sync.result.ms)}, ${Math.round(sync.result.n / (sync.result.ms / 1000))} a second`);
log(`  meanwhile the health check: ${spread(sync.reads[0]!)}`);
log(`  meanwhile the heavy client's thread (first page of ${HEAVY}): ${spread(sync.reads[1]!)}`);
const linked = Number(((await handle.db.execute(sql`select count(*)::int as n from mail_message_accounts where account_id = ${heavy}`)).rows[0] as { n: number }).n);
log(`  the heavy client's thread holds ${linked} messages`);

// ---- From delivery to the record ----------------------------------------------------------------
async function deliveries(app: Awaited<ReturnType<typeof startApp>>, label: string, count: number, limitMs: number) {
  const times: number[] = [];
  for (let k = 0; k < count; k++) {
    const subject = `${label} ${k} ${Date.now()}`;
    const t0 = Date.now();
    await appendMail(dovecot, `From: Client <${senderOf(0)}>\nTo: info@agency.test\nSubject: ${subject}\nMessage-ID: <${label.replace(/\W/g, '')}-${k}-${t0}@example.gr>\nDate: ${rfcDate(new Date())}\n\nA new question.\n`);
    const ok = await until(async () => ((await app.call('GET', thread)).items as { subject: string }[]).some((m) => m.subject === subject), limitMs);
    times.push(ok ? Date.now() - t0 : Number.POSITIVE_INFINITY);
  }
  const shown = times.map((ms) => (Number.isFinite(ms) ? seconds(ms) : 'not within the limit'));
  log(`delivery to the record, ${label}: ${shown.join(', ')}`);
}
await deliveries(first, 'with IDLE', 5, 60_000);
await first.close();
if (POLLING) {
  const polling = await startApp({ MAIL_IDLE: 'false' });
  await deliveries(polling, `polling only (every ${polling.pollSeconds} s)`, 3, 150_000);
  await polling.close();
}
await handle.close();
await db.stop();
await dovecot.stop();
log(`load after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
