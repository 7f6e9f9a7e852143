// npm run test:cluster: the CRM as several machines would run it, started on this one (decision 062).
// Debian's PostgreSQL as a primary and a streaming replica, PgBouncer in transaction mode in front of
// the primary, an S3-compatible server (s3rver, scripts/cluster/s3-server.mjs), HAProxy in front of
// three app instances, each on a free port and a temporary folder. Through the balancer: an API run
// (sign in, accounts created and edited, photos uploaded, viewings, payments) and a browser's sign-in,
// a client added and edited in it;
// meanwhile one instance is killed (SIGKILL), another stopped (SIGTERM) and a new one started. Then it
// checks what a user would: no acknowledged write lost, no request failed, each recurring job run once,
// every photo readable from every instance, a save seen by the list read right after it, a backup
// asked for through the balancer kept in the store and downloaded whole from every instance. Then
// vitest -c vitest.cluster.config.ts runs the store's tests and copies the demo agency's files into
// S3 and back (test/cluster/s3-demo.cluster.ts), against Ceph's RADOS Gateway (decision 108).
// Everything started here is stopped on exit, failure included. Needs: postgresql, pgbouncer, haproxy
// radosgw, ceph-mon, ceph-osd (Debian), Chromium (CHROMIUM_PATH or /usr/bin/chromium*), the built
// web app (built if missing).
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-cluster-'));
const started = Date.now();
export const ADMIN = { email: 'admin@cluster.test', password: 'harbour lemon tree 7' };
const BUCKET = 'crm-files';
const root = process.getuid?.() === 0;
const children: { name: string; proc: ChildProcess }[] = [];
const stops: (() => void)[] = [];
let failed = false;

export const say = (line: string) => process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);

/** Stops what the test started (instances, balancer, pooler, PostgreSQL, the S3 server); again is harmless. */
function stopEverything() {
  for (const c of [...children].reverse()) {
    if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  }
  for (const s of stops.splice(0).reverse()) {
    try {
      s();
    } catch {
      /* stopped already */
    }
  }
}

function cleanup() {
  stopEverything();
  if (!failed || !process.env.KEEP_CLUSTER_DIR) fs.rmSync(TMP, { recursive: true, force: true });
  else say(`logs kept in ${TMP}`);
}
process.on('exit', cleanup);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => process.exit(130));

/** A command as the postgres user when this runs as root (PostgreSQL and PgBouncer refuse root). */
function asPostgres(cmd: string, args: string[]): [string, string[]] {
  return root ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}
function run(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv } = {}) {
  const [c, a] = asPostgres(cmd, args);
  execFileSync(c, a, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...opts.env } });
}
function startProcess(name: string, cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; log: string; cwd?: string }): ChildProcess {
  const out = fs.openSync(opts.log, 'a');
  const proc = spawn(cmd, args, { cwd: opts.cwd ?? ROOT, env: { ...process.env, ...opts.env }, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  children.push({ name, proc });
  return proc;
}
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}
/** Waits for `check` to hold, asking again every 100 ms; fails with `what` after `timeoutMs`. */
export async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 120_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
export const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.on('connect', () => (s.destroy(), resolve(true)));
    s.on('error', () => resolve(false));
  });
export const status = async (url: string) => (await fetch(url)).status;

// ---------------------------------------------------------------- the parts

const PGBIN = fs
  .readdirSync('/usr/lib/postgresql')
  .sort((a, b) => Number(a) - Number(b))
  .map((v) => `/usr/lib/postgresql/${v}/bin`)
  .at(-1)!;
if (root) execFileSync('chown', ['postgres:postgres', TMP]);
fs.chmodSync(TMP, 0o777);

export async function startPostgres() {
  const primaryPort = await freePort();
  const replicaPort = await freePort();
  const primary = path.join(TMP, 'primary');
  const replica = path.join(TMP, 'replica');
  run(`${PGBIN}/initdb`, ['-D', primary, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  fs.appendFileSync(
    path.join(primary, 'postgresql.conf'),
    `\nport = ${primaryPort}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${TMP}'\nwal_level = replica\nmax_wal_senders = 5\nhot_standby = on\nmax_connections = 300\nfsync = off\n`,
  );
  run(`${PGBIN}/pg_ctl`, ['-D', primary, '-l', path.join(TMP, 'primary.log'), '-w', 'start']);
  stops.push(() => run(`${PGBIN}/pg_ctl`, ['-D', primary, '-m', 'immediate', 'stop']));
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${primaryPort}/postgres` });
  await admin.connect();
  await admin.query('create database crm');
  await admin.end();
  run(`${PGBIN}/pg_basebackup`, ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replica, '-R', '-X', 'stream', '-c', 'fast']);
  fs.appendFileSync(path.join(replica, 'postgresql.conf'), `\nport = ${replicaPort}\n`);
  run(`${PGBIN}/pg_ctl`, ['-D', replica, '-l', path.join(TMP, 'replica.log'), '-w', 'start']);
  stops.push(() => run(`${PGBIN}/pg_ctl`, ['-D', replica, '-m', 'immediate', 'stop']));
  const rep = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${replicaPort}/crm` });
  await rep.connect();
  const inRecovery = (await rep.query<{ r: boolean }>('select pg_is_in_recovery() as r')).rows[0]!.r;
  await rep.end();
  if (!inRecovery) throw new Error('the replica is not in recovery: not a streaming replica');
  return { primaryPort, replicaPort };
}

export async function startPgBouncer(primaryPort: number) {
  const port = await freePort();
  const ini = path.join(TMP, 'pgbouncer.ini');
  fs.writeFileSync(path.join(TMP, 'userlist.txt'), '"postgres" ""\n');
  fs.writeFileSync(
    ini,
    `[databases]\ncrm = host=127.0.0.1 port=${primaryPort} dbname=crm\n[pgbouncer]\nlisten_addr = 127.0.0.1\nlisten_port = ${port}\nunix_socket_dir = ${TMP}\n` +
      `auth_type = trust\nauth_file = ${path.join(TMP, 'userlist.txt')}\npool_mode = transaction\nmax_client_conn = 1000\ndefault_pool_size = 30\n` +
      `ignore_startup_parameters = extra_float_digits,options\nlogfile = ${path.join(TMP, 'pgbouncer.log')}\n`,
  );
  for (const f of ['pgbouncer.ini', 'userlist.txt']) if (root) execFileSync('chown', ['postgres:postgres', path.join(TMP, f)]);
  // As root, PgBouncer itself switches to the postgres user (-u), so that the process this script
  // stops is PgBouncer, not a runuser in front of it.
  startProcess('pgbouncer', '/usr/sbin/pgbouncer', root ? ['-u', 'postgres', ini] : [ini], { log: path.join(TMP, 'pgbouncer.out') });
  await until('PgBouncer to listen', () => portOpen(port), 30_000);
  return port;
}

export async function startS3() {
  const port = await freePort();
  const dir = path.join(TMP, 's3');
  fs.mkdirSync(dir);
  startProcess('s3', process.execPath, ['--openssl-legacy-provider', path.join(ROOT, 'scripts/cluster/s3-server.mjs'), dir, BUCKET, String(port)], { log: path.join(TMP, 's3.log') });
  await until('the S3 server to listen', () => portOpen(port), 30_000);
  return `http://127.0.0.1:${port}`;
}

export type Instance = { n: number; port: number; proc: ChildProcess; log: string };

export function instanceEnv(n: number, port: number, ports: { lb: number; bouncer: number; primary: number; replica: number }, s3: string): NodeJS.ProcessEnv {
  const dataDir = path.join(TMP, `app${n}`);
  fs.mkdirSync(dataDir, { recursive: true });
  return {
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${ports.lb}`,
    TRUST_PROXY: 'true',
    DATABASE_URL: `postgres://postgres@127.0.0.1:${ports.bouncer}/crm`,
    DATABASE_DIRECT_URL: `postgres://postgres@127.0.0.1:${ports.primary}/crm`,
    DATABASE_READ_URL: `postgres://postgres@127.0.0.1:${ports.replica}/crm`,
    DATABASE_PREPARED_STATEMENTS: 'false',
    DATABASE_POOL_SIZE: '10',
    STORAGE: 's3',
    S3_ENDPOINT: s3,
    S3_BUCKET: BUCKET,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
    S3_PREFIX: 'crm/',
    S3_CHECKSUMS: 'when_required',
    SHUTDOWN_DRAIN_SECONDS: '2',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    DEMO_DATA: 'false',
    BACKUPS: 'false',
    PASSWORD_HASH_FAST: 'true',
    LOG_LEVEL: 'warn',
    FIRST_PAINT: 'false',
  };
}

export function startInstance(n: number, port: number, env: NodeJS.ProcessEnv): Instance {
  const log = path.join(TMP, `app${n}.log`);
  const proc = startProcess(`app${n}`, process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], { env, log });
  return { n, port, proc, log };
}
export const ready = (i: Instance) => until(`instance ${i.n} to be ready`, async () => (await status(`http://127.0.0.1:${i.port}/api/health/ready`)) === 200, 180_000);

export async function startHaproxy(lb: number, apps: number[]) {
  const cfg = path.join(TMP, 'haproxy.cfg');
  fs.writeFileSync(
    cfg,
    [
      'global',
      '  log stdout format raw local0 info',
      '  maxconn 2000',
      // Uploads up to 1 MB are kept whole, so that one sent to an instance that dies is sent again.
      '  tune.bufsize 1048576',
      'defaults',
      '  mode http',
      '  log global',
      '  log-format "%b/%s %ST %rc %HM %HU %Tt"',
      '  option forwardfor',
      '  timeout connect 2s',
      '  timeout client 60s',
      '  timeout server 60s',
      '  retries 3',
      '  option redispatch 1',
      '  retry-on conn-failure empty-response response-timeout 502 503 504',
      'frontend crm',
      `  bind 127.0.0.1:${lb}`,
      '  http-request wait-for-body time 10s at-least 1m',
      '  http-request del-header X-Forwarded-For',
      '  http-request del-header X-Forwarded-Host',
      '  http-request set-header X-Forwarded-Proto http',
      '  default_backend apps',
      'backend apps',
      '  balance roundrobin',
      '  option httpchk GET /api/health/ready',
      '  http-check expect status 200',
      '  default-server inter 500ms fall 1 rise 1',
      ...apps.map((p, i) => `  server app${i + 1} 127.0.0.1:${p} check`),
      '',
    ].join('\n'),
  );
  const proc = startProcess('haproxy', '/usr/sbin/haproxy', ['-db', '-f', cfg], { log: path.join(TMP, 'haproxy.log') });
  await until('HAProxy to listen', () => portOpen(lb), 30_000);
  return proc;
}

// ---------------------------------------------------------------- the run

type Call = { method: string; url: string; status: number; error?: string };
const calls: Call[] = [];
const failures: Call[] = [];
/** Changes saved whose answer was lost with their instance (killed between the commit and keeping the answer): the retry is told so (decision 031). */
const answersLost: Call[] = [];
/** What `api` gives back for such a change: saved, its answer unknown. */
type Answer = Record<string, unknown> & { answerLost?: true };

async function api(base: string, token: string | null, method: string, url: string, body?: unknown, opts: { multipart?: FormData } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (method !== 'GET') headers['idempotency-key'] = randomUUID();
  let payload: BodyInit | undefined;
  if (opts.multipart) payload = opts.multipart;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const call: Call = { method, url, status: 0 };
  calls.push(call);
  try {
    const res = await fetch(base + url, { method, headers, body: payload });
    call.status = res.status;
    const text = await res.text();
    if (res.status === 409 && /"code":"errors\.idempotencyAnswerLost"/.test(text)) {
      answersLost.push(call);
      return { answerLost: true };
    }
    if (!res.ok) {
      call.error = text.slice(0, 300);
      failures.push(call);
      throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
    }
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch (e) {
    if (!call.status) {
      call.error = String(e);
      failures.push(call);
    }
    throw e;
  }
}

function png(seed: number): Buffer {
  // A real 2x2 PNG each time different (its colour), so every upload is its own file.
  const raw = Buffer.from([0, seed & 255, (seed >> 8) & 255, 90, 0, 0, 0, 255, 0, 10, 20, 255, 0, 200, 100, 255, 0, 1, 2, 255]);

  const idat = zlib.deflateSync(Buffer.concat([Buffer.from([0]), raw.subarray(1, 7), Buffer.from([0]), raw.subarray(7, 13)]));
  const crc = (b: Buffer) => {
    let c = ~0;
    for (const x of b) {
      c ^= x;
      for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
    }
    return ~c >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(2, 0);
  ihdr.writeUInt32BE(2, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * "Back up now" through the balancer (decision 093): one instance makes it into the store's
 * backups/; then every running instance lists it and streams the same bytes. Answers the problem, if any.
 */
async function backupEverywhere(base: string, token: string, apps: Instance[]): Promise<string | undefined> {
  const auth = { authorization: `Bearer ${token}` };
  const started = await fetch(`${base}/api/backups`, { method: 'POST', headers: auth });
  if (started.status !== 200) return `Back up now answered ${started.status}`;
  type Listed = { inStore: boolean; dir: string; items: { name: string; size: number }[] };
  let listed: Listed | undefined;
  await until('the backup to be made', async () => {
    listed = (await (await fetch(`${base}/api/backups`, { headers: auth })).json()) as Listed;
    return listed.items.length > 0;
  }, 120_000);
  const made = listed!.items[0]!;
  if (!listed!.inStore || listed!.dir !== 's3://crm-files/crm/backups/') return `kept in ${listed!.dir}, not in the store`;
  say(`backup ${made.name} (${made.size} bytes) in ${listed!.dir}`);
  const problems: string[] = [];
  let first: string | undefined;
  for (const a of apps.filter((x) => x.proc.exitCode === null && x.proc.signalCode === null)) {
    const there = (await (await fetch(`http://127.0.0.1:${a.port}/api/backups`, { headers: auth })).json()) as Listed;
    if (there.items[0]?.name !== made.name) problems.push(`instance ${a.n} lists ${there.items[0]?.name ?? 'none'}`);
    const res = await fetch(`http://127.0.0.1:${a.port}/api/backups/${made.name}`, { headers: auth });
    const bytes = Buffer.from(await res.arrayBuffer());
    const sum = createHash('sha256').update(bytes).digest('hex');
    first ??= sum;
    if (res.status !== 200 || bytes.length !== made.size || sum !== first) problems.push(`instance ${a.n}: ${res.status}, ${bytes.length} bytes`);
  }
  return problems.length ? problems.join('; ') : undefined;
}

async function main() {
  say(`working in ${TMP}`);
  if (!fs.existsSync(path.join(ROOT, 'apps/web/dist/index.html'))) {
    say('building the web app (npm run build)...');
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
  const pgPorts = await startPostgres();
  say(`PostgreSQL primary on ${pgPorts.primaryPort}, streaming replica on ${pgPorts.replicaPort}`);
  const bouncer = await startPgBouncer(pgPorts.primaryPort);
  say(`PgBouncer (transaction mode) on ${bouncer}`);
  const s3 = await startS3();
  say(`S3-compatible server at ${s3}`);
  const lb = await freePort();
  const appPorts = [await freePort(), await freePort(), await freePort(), await freePort()];
  const ports = { lb, bouncer, primary: pgPorts.primaryPort, replica: pgPorts.replicaPort };
  const env = (n: number) => instanceEnv(n, appPorts[n - 1]!, ports, s3);
  // Three at once: the migrations' and the seeding's locks let one do the work.
  const apps = [1, 2, 3].map((n) => startInstance(n, appPorts[n - 1]!, env(n)));
  await Promise.all(apps.map(ready));
  say(`three instances ready on ${appPorts.slice(0, 3).join(', ')}`);
  const haproxy = await startHaproxy(lb, appPorts);
  const base = `http://127.0.0.1:${lb}`;
  await until('the balancer to send to the instances', async () => (await status(`${base}/api/health/ready`)) === 200, 30_000);
  say(`HAProxy on ${lb}`);

  const db = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${pgPorts.primaryPort}/crm` });
  await db.connect();
  stops.push(() => void db.end().catch(() => {}));
  const migrated = await db.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
  const journal = JSON.parse(fs.readFileSync(path.join(ROOT, 'apps/server/drizzle/meta/_journal.json'), 'utf8')) as { entries: unknown[] };
  if (migrated.rows[0]!.n !== journal.entries.length) throw new Error(`migrations applied ${migrated.rows[0]!.n} times for ${journal.entries.length}: not once each`);

  // The recurring work's first runs, before any instance is stopped.
  const recurring = async () =>
    (await db.query<{ name: string; done: number; open: number }>(`select name, count(*) filter (where state = 'done')::int as done,
      count(*) filter (where state = 'running' or (state = 'queued' and run_at <= now()))::int as open from jobs where singleton_key = '@every' group by name order by name`)).rows;
  await until('every recurring job to have run', async () => {
    const r = await recurring();
    return r.length > 0 && r.every((j) => j.done >= 1 && j.open === 0);
  });
  say(`recurring jobs: ${(await recurring()).map((j) => j.name).join(', ')}`);

  const token = (await api(base, null, 'POST', '/api/authenticate/login', { username: ADMIN.email, password: ADMIN.password })).token as string;

  // A property for the photos and viewings, an owner for the payments.
  const blank = await api(base, token, 'GET', '/api/object/add');
  await api(base, token, 'POST', '/api/object/update', { id: blank.id, version: blank.version, title: 'Cluster flat' });
  const objectId = blank.id as number;

  // ---- the API run, with instances killed, stopped and started meanwhile
  const acked = new Map<number, string>(); // account id -> last name acknowledged
  const uploaded = new Map<string, string>(); // stored name -> sha256
  const viewings: number[] = [];
  const payments: number[] = [];
  let ryw = 0;
  let rywViolations = 0;
  let writes = 0;
  let stop = false;
  const worker = async (w: number) => {
    for (let round = 0; !stop; round++) {
      const last = `Cluster${w}x${round}${randomBytes(3).toString('hex')}`;
      const added = await api(base, token, 'POST', '/api/account/add', { firstName: 'Node', lastName: last });
      writes++;
      if (added.answerLost) continue;
      acked.set(added.id as number, last);
      const edited = `${last}Edited`;
      const current = await api(base, token, 'GET', `/api/account/edit/${added.id}`);
      await api(base, token, 'POST', '/api/account/update', { id: added.id, version: (current.dto as { version: number }).version, lastName: edited });
      writes++;
      acked.set(added.id as number, edited);
      // Read right after the save, through the balancer (any instance, the replica for lists): the save shows.
      const found = await api(base, token, 'GET', `/api/account/search?searchStr=${encodeURIComponent(edited)}`);
      ryw++;
      if (!((found.items as { id: number }[]) ?? []).some((i) => i.id === added.id)) rywViolations++;
      if (round % 2 === 0) {
        const form = new FormData();
        const bytes = png(w * 1000 + round);
        form.append('files', new Blob([bytes], { type: 'image/png' }), `photo-${w}-${round}.png`);
        const up = await api(base, token, 'POST', '/api/files', undefined, { multipart: form });
        if (up.answerLost) continue;
        const file = (up.files as { systemName: string }[] | undefined)?.[0] ?? (up as unknown as { systemName: string }[])[0];
        if (!file?.systemName) throw new Error(`unexpected upload answer ${JSON.stringify(up).slice(0, 200)}`);
        await api(base, token, 'POST', '/api/files/setParent', { entityType: 1, id: objectId, fileNames: [file.systemName] });
        uploaded.set(file.systemName, createHash('sha256').update(bytes).digest('hex'));
        writes++;
      }
      if (round % 3 === 0) {
        const day = new Date(Date.now() + 86400000 * (1 + (round % 20))).toISOString().slice(0, 10);
        const v = await api(base, token, 'POST', '/api/Viewing/update', { dateOfViewing: `${day}T1${w}:${String(round % 60).padStart(2, '0')}:00`, results: [{ objectId, result: 1 }] });
        if (!v.answerLost) viewings.push(v.id as number);
        writes++;
      }
      if (round % 4 === 1) {
        const owner = await api(base, token, 'POST', '/api/account/add', { firstName: 'Owner', lastName: `Payer${w}x${round}`, isOwner: true, hasTransactions: true });
        if (owner.answerLost) continue;
        const form = new FormData();
        for (const [k, v] of Object.entries({ accountId: String(owner.id), amount: '120.50', transactionDate: '2026-03-02T10:30:00', paymentMethod: '1', categoryId: '1' })) form.append(k, v);
        const p = await api(base, token, 'POST', '/api/transactions/addIncome', undefined, { multipart: form });
        if (!p.answerLost) payments.push(p.id as number);
        writes++;
      }
    }
  };
  // A colleague who only reads lists meanwhile (a session of its own that writes nothing): the
  // replica serves those reads.
  const readerToken = (await api(base, null, 'POST', '/api/authenticate/login', { username: ADMIN.email, password: ADMIN.password })).token as string;
  let listReads = 0;
  const reader = async () => {
    while (!stop) {
      await api(base, readerToken, 'GET', `/api/account/search?searchStr=Cluster`);
      await api(base, readerToken, 'POST', '/api/Viewing/search', { perPage: 10, currentPage: 1 });
      listReads += 2;
    }
  };
  const running = [...[1, 2, 3].map((w) => worker(w)), reader()];
  const chaos = (async () => {
    await until('30 acknowledged writes', () => writes >= 30);
    say(`SIGKILL instance 1 (pid ${apps[0]!.proc.pid}) with ${writes} writes acknowledged`);
    apps[0]!.proc.kill('SIGKILL');
    await until('40 more writes', () => writes >= 70);
    say(`SIGTERM instance 2 with ${writes} writes acknowledged`);
    const exited = new Promise<number | null>((r) => apps[1]!.proc.once('exit', (code) => r(code)));
    apps[1]!.proc.kill('SIGTERM');
    const fourth = startInstance(4, appPorts[3]!, env(4));
    apps.push(fourth);
    const code = await exited;
    if (code !== 0) throw new Error(`instance 2 stopped with ${code} after SIGTERM`);
    if (!fs.readFileSync(apps[1]!.log, 'utf8').includes('Stopped.')) throw new Error('instance 2 did not say it stopped cleanly');
    say('instance 2 drained and stopped (exit 0)');
    await ready(fourth);
    say(`instance 4 ready with ${writes} writes acknowledged`);
    await until('40 writes after it joined', (() => {
      const at = writes;
      return () => writes >= at + 40;
    })());
    stop = true;
  })();
  await Promise.all([chaos, ...running]);
  say(`API run: ${calls.length} requests, ${writes} writes acknowledged, ${uploaded.size} photos, ${viewings.length} viewings, ${payments.length} payments, ${answersLost.length} saved with their answer lost (told so)`);

  // ---- a browser through the balancer
  const browser = await chromium.launch({
    executablePath: [process.env.CHROMIUM_PATH, '/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) => p && fs.existsSync(p)),
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  stops.push(() => void browser.close().catch(() => {}));
  const page = await browser.newPage({ baseURL: base });
  await page.goto('/login');
  await page.getByTestId('login-email').fill(ADMIN.email);
  await page.getByTestId('login-password').fill(ADMIN.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/CRM$/);
  const photo = [...uploaded.keys()][0]!;
  const seen = await page.goto(`/api/files/${photo}?size=thumb`);
  if (seen?.status() !== 200 || !/image\/webp/.test(seen.headers()['content-type'] ?? '')) throw new Error(`the browser could not open a photo's copy through the balancer (${seen?.status()})`);
  // A client added and its notes edited in the browser, each screen's calls going to whichever
  // instance the balancer picks; after a reload (other instances again) the edit shows, and it is stored.
  const browserLast = `Browser${randomBytes(3).toString('hex')}`;
  await page.goto('/Accounts/AddClient');
  await page.getByTestId('add-lastName').fill(browserLast);
  await page.getByTestId('add-firstName').fill('Maria');
  await page.getByTestId('add-submit').click();
  await page.waitForURL(/\/Accounts\/View\/\d+/);
  const browserId = Number(/\/Accounts\/View\/(\d+)/.exec(page.url())![1]);
  await page.goto(`/Accounts/View/${browserId}`);
  await page.getByTestId('editable-notes-edit').click();
  const browserNote = 'Keys with the concierge, through the balancer';
  await page.getByTestId('field-editor').getByTestId('field-input').fill(browserNote);
  await page.getByTestId('field-editor-save').click();
  await page.getByTestId('view-notes').filter({ hasText: browserNote }).waitFor();
  await page.reload();
  await page.getByTestId('view-notes').filter({ hasText: browserNote }).waitFor();
  await browser.close();
  say(`browser: signed in through the balancer, a photo opened with the session cookie, client ${browserId} added and its notes edited`);

  // ---- the checks
  const checks: { name: string; problem?: string }[] = [];
  const check = (name: string, problem: string | undefined) => checks.push({ name, problem });
  check('a backup asked for through the balancer is kept in the store, listed and downloaded whole by every running instance', await backupEverywhere(base, token, apps));
  check('no request failed at the client', failures.length ? `${failures.length} failed: ${failures.slice(0, 5).map((f) => `${f.method} ${f.url} ${f.status} ${f.error ?? ''}`).join('; ')}` : undefined);
  const stored = await db.query<{ id: number; last_name: string }>('select id, last_name from accounts where id = any($1::int[])', [[...acked.keys()]]);
  const byId = new Map(stored.rows.map((r) => [r.id, r.last_name]));
  const lost = [...acked].filter(([id, name]) => byId.get(id) !== name);
  check('every acknowledged account and its edit is stored', lost.length ? `${lost.length} lost or different: ${lost.slice(0, 5).map(([id, n]) => `${id} ${n} -> ${byId.get(id)}`).join('; ')}` : undefined);
  const browserRow = (await db.query<{ last_name: string; notes: string | null }>('select last_name, notes from accounts where id = $1', [browserId])).rows[0];
  check('the client added and edited in the browser is stored with its notes', browserRow?.last_name === browserLast && browserRow.notes === browserNote ? undefined : `stored ${JSON.stringify(browserRow)}`);
  const vstored = (await db.query<{ n: number }>('select count(*)::int as n from viewings where id = any($1::int[])', [viewings])).rows[0]!.n;
  check('every acknowledged viewing is stored', vstored !== viewings.length ? `${viewings.length} acknowledged, ${vstored} stored` : undefined);
  const pstored = (await db.query<{ n: number }>('select count(*)::int as n from transactions where id = any($1::int[])', [payments])).rows[0]!.n;
  check('every acknowledged payment is stored', pstored !== payments.length ? `${payments.length} acknowledged, ${pstored} stored` : undefined);
  check('a save shows in the list read right after it', rywViolations ? `${rywViolations} of ${ryw} reads did not show it` : undefined);
  const live = apps.filter((a) => a.proc.exitCode === null && a.proc.signalCode === null);
  const unreadable: string[] = [];
  for (const a of live) {
    for (const [name, sum] of uploaded) {
      const res = await fetch(`http://127.0.0.1:${a.port}/api/files/${name}`, { headers: { authorization: `Bearer ${token}` } });
      const got = createHash('sha256').update(Buffer.from(await res.arrayBuffer())).digest('hex');
      if (res.status !== 200 || got !== sum) unreadable.push(`instance ${a.n}: ${name} ${res.status}`);
    }
  }
  check(`every uploaded photo is read, the same bytes, from every running instance (${live.length})`, unreadable.length ? unreadable.slice(0, 5).join('; ') : undefined);
  // Once per period across all instances: each recurring job ran, and none of its runs started
  // while another was running or sooner than a period after the one before (a run's next is
  // queued one period after it finished; the shortest period here is 30 s). The run lasts longer
  // than the shortest periods on a loaded machine, so "exactly one run" would not hold.
  const jobs = (await db.query<{ name: string; done: number; early: number }>(`select name, count(*)::int as done,
      count(*) filter (where prev_finished is not null and (started_on < prev_finished or run_at < prev_finished + interval '25 seconds'))::int as early
    from (select name, run_at, started_on, lag(finished_on) over (partition by name order by started_on, id) as prev_finished
      from jobs where singleton_key = '@every' and state = 'done') runs group by name order by name`)).rows;
  const twice = jobs.filter((j) => j.done < 1 || j.early > 0);
  check(`each recurring job ran once a period, never two runs at once (${jobs.length})`, twice.length ? twice.map((j) => `${j.name}: ${j.done} runs, ${j.early} too early`).join(', ') : undefined);
  // The lists were read from the replica (its own statistics count the scans it ran), and the
  // replica did not fall behind for good.
  const rep = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${pgPorts.replicaPort}/crm` });
  await rep.connect();
  const scans = (await rep.query<{ n: string }>(`select coalesce(sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)), 0)::text as n from pg_stat_user_tables where relname in ('accounts', 'viewings')`)).rows[0]!.n;
  await rep.end();
  check('the lists were read from the replica', Number(scans) > 0 ? undefined : 'no scan of accounts on the replica');
  const hlog = fs.readFileSync(path.join(TMP, 'haproxy.log'), 'utf8').split('\n').filter((l) => /^apps\//.test(l));
  const retried = hlog.filter((l) => Number(l.split(' ')[2]) > 0 || / \+\d+ /.test(l)).length;
  const errors = hlog.filter((l) => /^apps\/\S+ (5\d\d|-1) /.test(l));
  check('the balancer answered no request with an error', errors.length ? `${errors.length}: ${errors.slice(0, 3).join(' | ')}` : undefined);
  say(`${acked.size} accounts, ${viewings.length} viewings, ${payments.length} payments, ${uploaded.size} photos; ${ryw} reads after a save, ${listReads} by a colleague; ${retried} of ${hlog.length} requests retried by the balancer`);
  for (const c of checks) say(`${c.problem ? 'FAILED' : 'ok    '} ${c.name}${c.problem ? `: ${c.problem}` : ''}`);
  void haproxy;
  // The cluster has said all it had to: it gives its CPU and memory to Ceph's daemons below.
  stopEverything();

  // ---- the store's tests and the demo agency's files into S3 and back (vitest, against Ceph's RADOS Gateway)
  say("the store's tests and the demo agency's files into S3 and back, on Ceph's RADOS Gateway (vitest -c vitest.cluster.config.ts)...");
  execFileSync('npx', ['vitest', 'run', '-c', 'vitest.cluster.config.ts'], { cwd: path.join(ROOT, 'apps/server'), stdio: 'inherit', env: process.env });

  const bad = checks.filter((c) => c.problem).length;
  // The plain closing line CI reads (no time stamp before it).
  process.stdout.write(`cluster: ${checks.length - bad + 1} passed, ${bad} failed\n`);
  if (bad) {
    failed = true;
    process.exitCode = 1;
  }
}

// Ends the process (and so, through the exit handler, everything it started) however main ends.
// (Imported by bench-cluster.ts for its parts: then main does not run.)
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) void main().then(
  () => process.exit(process.exitCode ?? 0),
  (e: unknown) => {
    failed = true;
    process.stderr.write(`The cluster test failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.stdout.write('cluster: 0 passed, 1 failed\n');
    process.exit(1);
  },
);
