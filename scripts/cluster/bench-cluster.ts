// npm run bench:cluster [-- --accounts 20000 ... --duration 10 --concurrency 8]: the same request mix,
// on the same data, once against one instance and once against three behind HAProxy (decision 062).
// The set-up is the cluster test's (PostgreSQL primary and replica, PgBouncer, the S3 server, HAProxy;
// scripts/cluster/test-cluster.ts); the agency is scripts/generate-large.ts's, smaller by default
// (--accounts ... as npm run bench takes them). Per run: throughput, p50/p95, and the instances' CPU
// time per request (from /proc, user + system, all instances of the run together), HAProxy's apart.
// Printed, not asserted: timings are no test.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { ensureLargeData, parseSizes } from '../generate-large.ts';
import {
  ADMIN,
  freePort,
  instanceEnv,
  ready,
  say,
  startHaproxy,
  startInstance,
  startPgBouncer,
  startPostgres,
  startS3,
  status,
  until,
  type Instance,
} from './test-cluster.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const argv = process.argv.slice(2);
const num = (name: string, dflt: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const given = (k: string) => argv.includes(`--${k}`);
const full = parseSizes(argv);
const sizes = {
  accounts: given('accounts') ? full.accounts : 20_000,
  activities: given('activities') ? full.activities : 100_000,
  objects: given('objects') ? full.objects : 5_000,
  leads: given('leads') ? full.leads : 10_000,
  viewings: given('viewings') ? full.viewings : 2_000,
  transactions: given('transactions') ? full.transactions : 30_000,
  deals: given('deals') ? full.deals : 2_000,
  reservations: given('reservations') ? full.reservations : 2_000,
};
const DURATION_MS = num('duration', 10) * 1000;
const CONCURRENCY = num('concurrency', 8);

/** User + system CPU time of a process, ms (/proc/PID/stat, clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The machine's CPU time, busy and all, ms (/proc/stat's first line). */
function machineMs(): { busy: number; all: number } {
  const v = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const all = v.reduce((a, b) => a + b, 0) * 10;
  const idle = (v[3]! + (v[4] ?? 0)) * 10;
  return { busy: all - idle, all };
}

type Load = { latencies: number[]; statuses: Record<string, number>; elapsedMs: number; errors: string[] };
/** --per-instance: the clients scale with the instances (each instance sees as many at once as the one did). */
const PER_INSTANCE = argv.includes('--per-instance');
function load(port: number, token: string, requests: unknown[], concurrency = CONCURRENCY): Promise<Load> {
  return new Promise((resolve, reject) => {
    const w = new Worker(path.join(ROOT, 'scripts/bench-load.mjs'), {
      workerData: { port, token, requests, concurrency, warmupMs: 2000, durationMs: DURATION_MS },
    });
    w.once('message', (m: Load) => resolve(m));
    w.once('error', reject);
  });
}
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

async function main() {
  const pgPorts = await startPostgres();
  const bouncer = await startPgBouncer(pgPorts.primaryPort);
  const s3 = await startS3();
  const lb = await freePort();
  const appPorts = [await freePort(), await freePort(), await freePort()];
  const ports = { lb, bouncer, primary: pgPorts.primaryPort, replica: pgPorts.replicaPort };
  const primaryUrl = `postgres://postgres@127.0.0.1:${pgPorts.primaryPort}/crm`;

  // The schema first (one instance migrates), then the agency into the primary.
  const first = startInstance(1, appPorts[0]!, instanceEnv(1, appPorts[0]!, ports, s3));
  await ready(first);
  say(`generating the agency (${Object.entries(sizes).map(([k, v]) => `${k} ${v}`).join(', ')})...`);
  await ensureLargeData(primaryUrl, sizes, { log: (l) => say(l.trim()) });
  const db = new pg.Client({ connectionString: primaryUrl });
  await db.connect();
  await db.query('vacuum analyze');
  const rep = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${pgPorts.replicaPort}/crm` });
  await rep.connect();
  const lsn = (await db.query<{ l: string }>('select pg_current_wal_lsn()::text as l')).rows[0]!.l;
  await until('the replica to replay the agency', async () => (await rep.query<{ ok: boolean }>('select pg_last_wal_replay_lsn() >= $1::pg_lsn as ok', [lsn])).rows[0]!.ok, 600_000);
  await rep.end();
  const apps: Instance[] = [first, ...[2, 3].map((n) => startInstance(n, appPorts[n - 1]!, instanceEnv(n, appPorts[n - 1]!, ports, s3)))];
  await Promise.all(apps.map(ready));
  await until('the recurring jobs to be done', async () => {
    const r = await db.query<{ n: number }>(`select count(*)::int as n from jobs where state = 'running' or (state = 'queued' and run_at <= now())`);
    return r.rows[0]!.n === 0;
  }, 600_000);
  const haproxy = await startHaproxy(lb, appPorts);
  await until('the balancer', async () => (await status(`http://127.0.0.1:${lb}/api/health/ready`)) === 200, 30_000);
  // A balancer with the first instance alone: one against three through the same path.
  const lbOne = await freePort();
  const haproxyOne = await startHaproxy(lbOne, [appPorts[0]!]);
  await until('the one-instance balancer', async () => (await status(`http://127.0.0.1:${lbOne}/api/health/ready`)) === 200, 30_000);

  const login = await fetch(`http://127.0.0.1:${lb}/api/authenticate/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: ADMIN.email, password: ADMIN.password }) });
  const token = ((await login.json()) as { token: string }).token;
  const ids = (await db.query<{ id: number }>('select id from accounts order by id desc limit 200')).rows.map((r) => r.id);
  const objectIds = (await db.query<{ id: number }>('select id from objects order by id desc limit 200')).rows.map((r) => r.id);
  await db.end();
  // The everyday mix: lists (the replica), a search, record views (the primary).
  const requests: unknown[] = [];
  for (let i = 0; i < 200; i++) {
    const page = 1 + (i % 50);
    requests.push(
      { method: 'GET', path: `/api/account?perPage=20&currentPage=${page}&sortBy=createdOn&sortDir=desc` },
      { method: 'POST', path: '/api/object/search', body: { perPage: 20, currentPage: page } },
      { method: 'POST', path: '/api/lead/search', body: { perPage: 20, currentPage: page } },
      { method: 'GET', path: `/api/account/view/${ids[i % ids.length]}` },
      { method: 'GET', path: `/api/object/view/${objectIds[i % objectIds.length]}` },
      { method: 'GET', path: `/api/search?searchStr=${encodeURIComponent(['Παπα', 'nikol', 'Κων', 'maria'][i % 4]!)}` },
    );
  }

  const rows: string[] = [];
  const measure = async (label: string, port: number, instances: Instance[], balancer?: { pid?: number }) => {
    const before = instances.map((a) => cpuMs(a.proc.pid!));
    const hBefore = balancer ? cpuMs(balancer.pid!) : 0;
    const m0 = machineMs();
    const clients = PER_INSTANCE ? CONCURRENCY * instances.length : CONCURRENCY;
    const r = await load(port, token, requests, clients);
    const m1 = machineMs();
    const used = instances.reduce((n, a, i) => n + cpuMs(a.proc.pid!) - before[i]!, 0);
    const hUsed = balancer ? cpuMs(balancer.pid!) - hBefore : 0;
    // The warm-up's requests are in the CPU time too: counted by the same rate.
    const served = r.latencies.length * ((DURATION_MS + 2000) / DURATION_MS);
    const sorted = [...r.latencies].sort((a, b) => a - b);
    const ok = Object.entries(r.statuses).filter(([s]) => s.startsWith('2')).reduce((n, [, c]) => n + c, 0);
    rows.push(
      `| ${label}, ${clients} clients | ${(r.latencies.length / (r.elapsedMs / 1000)).toFixed(0)} | ${pct(sorted, 50).toFixed(1)} | ${pct(sorted, 95).toFixed(1)} | ${(used / served).toFixed(2)} | ${(used / served / instances.length).toFixed(2)} x ${instances.length} | ${balancer ? (hUsed / served).toFixed(2) : '-'} | ${((100 * (m1.busy - m0.busy)) / (m1.all - m0.all)).toFixed(0)} % | ${ok}/${r.latencies.length} |`,
    );
    say(`${label}: done`);
  };
  // Every instance warmed up first (its code optimised by V8, its connections made), so that no run
  // pays for another's first requests.
  for (const a of apps) await load(a.port, token, requests);
  say(`one instance, directly (${CONCURRENCY} clients, ${DURATION_MS / 1000} s)...`);
  await measure('one instance, directly', appPorts[0]!, [apps[0]!]);
  say('one instance behind HAProxy...');
  await measure('one instance behind HAProxy', lbOne, [apps[0]!], haproxyOne);
  say('three instances behind HAProxy...');
  await measure('three behind HAProxy', lb, apps, haproxy);
  say('');
  say(`| run (${os.cpus().length} cores) | requests/s | p50 ms | p95 ms | instances' CPU ms per request | per instance | HAProxy CPU ms per request | machine busy | 2xx |`);
  say('|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) say(r);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`The cluster bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
