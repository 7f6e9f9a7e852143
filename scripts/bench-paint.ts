// npm run bench:paint — what the server-drawn first paint (decision 054) costs, at full size.
//
//   npm run bench:paint [-- --pages 10000 --each 20 --deadline 30 --fresh]
//
// 1. Opens (or generates) the large agency as `npm run bench` does (DATA_DIR, default ./data/bench),
//    and builds the web app first when apps/web/dist or dist-ssr is missing.
// 2. Starts the app in this process with the web app served and the first paint on, and signs in a
//    bench administrator (its page cookie and the app's signed-in mark, as a browser has them).
// 3. Opens home, a list, a record and a few more screens by their address, one at a time, as a
//    browser's navigation asks for them (`--each` times each): per page, whether it was drawn, the
//    time to the answer, and the CPU it cost: this process (the app's thread and the drawing
//    worker's) and the bench's PostgreSQL. Once drawn anew each time (another address), once at the
//    same address (the page kept while nothing changed, decision 054).
// 4. `--users` signed-in users at once (default 8, `--rounds` pages each, default 12), each with its own
//    session, opening the screens as a browser does: per page, drawn or handed to the browser with its
//    loading state, or white (neither: a blank page), and whether its answer came within 1 s; the
//    worker's crashes and the drawings that met an error, from the server's log. `--parallel-only`
//    runs this part alone.
// 5. Then `--pages` pages in a row over the same screens (default 10,000; with --fresh each at another
//    address, so each is drawn anew), the process's memory read every tenth of the way after a
//    garbage collection: memory must stay flat.
// With FIRST_PAINT_PROFILE_DIR=dir, the drawing worker writes its CPU profile there (--cpu-prof) when it ends.
// Prints a table and writes DATA_DIR/bench-paint.json. Its exit code is non-zero only when something crashed.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { spawnSync } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { connectDb, type DbHandle } from '../apps/server/src/db/client.ts';
import { benchAdmin } from './bench-admin.ts';
import { BENCH_SECRET_KEY, ensureLargeData, openBenchDatabase, parseSizes } from './generate-large.ts';

const root = path.resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const num = (name: string, dflt: number) => {
  const i = argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(argv[i + 1]) : dflt;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number`);
  return v;
};
const PAGES = num('pages', 10_000);
/** The pages in a row each at another address (drawn anew, never kept): the drawing's own memory. */
const FRESH = argv.includes('--fresh');
const EACH = num('each', 20);
const DEADLINE_MIN = num('deadline', 30);
/** Signed-in users opening screens at once (issue 45: 8 on 2 cores), and how many pages each opens. */
const USERS = num('users', 8);
const ROUNDS = num('rounds', 12);
/** Only the users at once (no per-screen table, no pages in a row). */
const PARALLEL_ONLY = argv.includes('--parallel-only');
const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(root, 'data/bench'));
const log = (line = '') => process.stdout.write(`${line}\n`);
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));

/** This process's CPU so far (every thread, the drawing worker's too) and the bench PostgreSQL's, in ms. */
function cpuNow(postmaster: number | undefined): { proc: number; pg: number } {
  const ticks = (file: string) => {
    const stat = fs.readFileSync(file, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { cpu: (Number(f[11]) + Number(f[12])) * 10, ppid: Number(f[1]) };
  };
  let pg = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
      const t = ticks(`/proc/${pid}/stat`);
      if (postmaster === undefined || Number(pid) === postmaster || t.ppid === postmaster) pg += t.cpu;
    } catch {
      /* gone */
    }
  }
  return { proc: ticks('/proc/self/stat').cpu, pg };
}

async function main() {
  const deadline = setTimeout(() => {
    process.stderr.write(`bench:paint did not finish within ${DEADLINE_MIN} minutes; stopping.\n`);
    process.exit(1);
  }, DEADLINE_MIN * 60_000);
  deadline.unref();
  const loadBefore = os.loadavg();
  log(`Machine: ${os.cpus().length} cores, load average ${loadBefore.map((l) => l.toFixed(1)).join(' ')} as the bench starts.`);
  const web = path.join(root, 'apps/web');
  if (!fs.existsSync(path.join(web, 'dist/index.html')) || !fs.existsSync(path.join(web, 'dist-ssr/entry-server.js')) || argv.includes('--build-web')) {
    log('Building the web app...');
    const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('the web build failed');
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const db = await openBenchDatabase({ dataDir, log });
  let app: FastifyInstance | undefined;
  let handle: DbHandle | undefined;
  try {
    await ensureLargeData(db.url, parseSizes(argv), { log });
    const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: db.url, PASSWORD_HASH_FAST: 'true', LOG_LEVEL: 'silent', FIRST_PAINT: 'true', TIME_ZONE: process.env.TIME_ZONE, MAIL_SECRET_KEY: BENCH_SECRET_KEY });
    handle = connectDb(db.url, 20, { timeZone: config.timeZone });
    // The server's warnings counted: the drawing worker stopping (a crash) and a screen that met an error.
    const workerLog = { crashes: 0, errors: 0 };
    const logStream = {
      write(line: string) {
        if (line.includes('first paint: the worker stopped')) workerLog.crashes++;
        else if (line.includes('first paint: a screen could not be drawn')) workerLog.errors++;
        else if (/"level":(50|60)/.test(line)) process.stderr.write(line);
      },
    };
    app = await buildApp({ config, db: handle.db, serveWeb: true, jobs: false, logger: { level: 'warn', stream: logStream } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : 0;
    const base = `http://127.0.0.1:${port}`;
    const postmaster = await handle.pool
      .query<{ pid: number }>('select pg_backend_pid() as pid')
      .then((r) => {
        const stat = fs.readFileSync(`/proc/${r.rows[0]!.pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      })
      .catch(() => undefined);

    const signIn = await benchAdmin(handle.pool, base);
    const token = await signIn();
    const cookie = `crm_page=${token}; crm_signed_in=1; language=el`;

    const ownerId = (await handle.pool.query<{ id: number }>('select id from accounts where is_owner order by id limit 1')).rows[0]!.id;
    const objectId = (await handle.pool.query<{ id: number }>('select id from objects order by id limit 1')).rows[0]!.id;
    const leadId = (await handle.pool.query<{ id: number }>('select id from leads order by id limit 1')).rows[0]!.id;
    const screens = [
      { name: 'home', path: '/CRM' },
      { name: 'a list (owners)', path: '/Owners' },
      { name: 'a record (an owner)', path: `/Accounts/View/${ownerId}` },
      { name: 'a property', path: `/Objects/View/${objectId}` },
      { name: 'a lead', path: `/Leads/View/${leadId}` },
      { name: 'the deals board', path: '/Deals/Board' },
    ];
    // node:http, not fetch: fetch sets Sec-Fetch-Mode itself (to cors), and the server draws only a navigation.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const open = (p: string, phone: boolean, as: { cookie: string; agent: http.Agent } = { cookie, agent }) =>
      new Promise<{ ms: number; drawn: boolean; loading: boolean; status: number; bytes: number }>((resolve, reject) => {
        const t0 = performance.now();
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            path: p,
            agent: as.agent,
            headers: {
              accept: 'text/html,application/xhtml+xml',
              'sec-fetch-mode': 'navigate',
              cookie: as.cookie,
              'user-agent': phone ? 'Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile' : 'Mozilla/5.0 (X11; Linux x86_64)',
              'accept-language': 'el',
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              const html = Buffer.concat(chunks).toString('utf8');
              resolve({
                ms: performance.now() - t0,
                drawn: /<html[^>]*\sdata-drawn/.test(html),
                // Handed to the browser saying it is loading (build/boot-loading.ts), not a white page.
                loading: /<div id="root"><div class="crm-loading"/.test(html),
                status: res.statusCode ?? 0,
                bytes: html.length,
              });
            });
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end();
      });

    // Several signed-in users at once, each with its own session: every page drawn, or handed to the
    // browser with its loading state, within 1 s; none white; the worker never stopping.
    // Signed in one after the other: sign-ins at once from one address are throttled as an attack would be.
    const sessions: { cookie: string; agent: http.Agent }[] = [];
    for (let u = 0; u < USERS; u++) {
      const tk = await signIn();
      sessions.push({ cookie: `crm_page=${tk}; crm_signed_in=1; language=el`, agent: new http.Agent({ keepAlive: true, maxSockets: 1 }) });
    }
    const crashesBefore = workerLog.crashes;
    const errorsBefore = workerLog.errors;
    const atOnce: { ms: number; drawn: boolean; loading: boolean; status: number }[] = [];
    let seq = 0;
    await Promise.all(
      sessions.map(async (as, u) => {
        for (let i = 0; i < ROUNDS; i++) {
          const s = screens[(u + i) % screens.length]!;
          // Each at another address: drawn anew, never a kept page.
          atOnce.push(await open(`${s.path}${s.path.includes('?') ? '&' : '?'}user=${u}&n=${++seq}`, (u + i) % 2 === 1, as));
        }
      }),
    );
    const parallel = {
      users: USERS,
      pages: atOnce.length,
      drawn: atOnce.filter((r) => r.drawn).length,
      handedOver: atOnce.filter((r) => !r.drawn && r.loading).length,
      white: atOnce.filter((r) => r.status !== 200 || (!r.drawn && !r.loading)).length,
      within1s: atOnce.filter((r) => r.ms <= 1000).length,
      workerCrashes: workerLog.crashes - crashesBefore,
      drawingErrors: workerLog.errors - errorsBefore,
      p50: [...atOnce].sort((a, b) => a.ms - b.ms)[Math.floor(atOnce.length / 2)]?.ms ?? 0,
      p95: [...atOnce].sort((a, b) => a.ms - b.ms)[Math.floor(atOnce.length * 0.95)]?.ms ?? 0,
      max: Math.max(0, ...atOnce.map((r) => r.ms)),
    };
    log(
      `${USERS} users at once, ${parallel.pages} pages: ${parallel.drawn} drawn, ${parallel.handedOver} handed to the browser (loading shown), ${parallel.white} white; ` +
        `${parallel.within1s}/${parallel.pages} within 1 s (p50 ${ms(parallel.p50)} ms, p95 ${ms(parallel.p95)} ms, max ${ms(parallel.max)} ms); worker crashes ${parallel.workerCrashes}, drawings given up on an error ${parallel.drawingErrors}`,
    );
    fs.writeFileSync(path.join(dataDir, 'bench-paint-parallel.json'), JSON.stringify({ date: new Date().toISOString(), loadAvg: os.loadavg(), ...parallel }, null, 2));
    if (parallel.white > 0 || parallel.workerCrashes > 0) process.exitCode = 1;
    if (PARALLEL_ONLY) return;

    // Each screen alone: drawn or not, its time and its CPU; first each time at another address (an
    // unknown parameter the screen ignores: the page is drawn anew), then at the same one (kept).
    type Row = { name: string; path: string; how: 'drawn' | 'kept'; drawn: number; p50: number; cpuProc: number; cpuPg: number };
    const rows: Row[] = [];
    let n = 0;
    for (const how of ['drawn', 'kept'] as const) {
      for (const s of screens) {
        const at = () => (how === 'drawn' ? `${s.path}${s.path.includes('?') ? '&' : '?'}bench=${++n}` : s.path);
        for (let i = 0; i < 3; i++) await open(at(), i % 2 === 1); // warm
        const times: number[] = [];
        let drawn = 0;
        const before = cpuNow(postmaster);
        for (let i = 0; i < EACH; i++) {
          const r = await open(at(), i % 2 === 1);
          times.push(r.ms);
          if (r.drawn) drawn++;
        }
        const after = cpuNow(postmaster);
        times.sort((a, b) => a - b);
        rows.push({ name: s.name, path: s.path, how, drawn, p50: times[Math.floor(times.length / 2)]!, cpuProc: (after.proc - before.proc) / EACH, cpuPg: (after.pg - before.pg) / EACH });
        log(`  ${s.name}, ${how}: drawn ${drawn}/${EACH}, p50 ${ms(rows.at(-1)!.p50)} ms, CPU a page ${ms(rows.at(-1)!.cpuProc)} ms (process) + ${ms(rows.at(-1)!.cpuPg)} ms (PostgreSQL)`);
      }
    }

    // Many pages in a row: memory after a collection, every tenth of the way.
    const gc = () => {
      (globalThis as { gc?: () => void }).gc?.();
    };
    const memory: { pages: number; rssMb: number; heapMb: number }[] = [];
    const sample = (pages: number) => {
      gc();
      memory.push({ pages, rssMb: process.memoryUsage.rss() / 2 ** 20, heapMb: v8.getHeapStatistics().used_heap_size / 2 ** 20 });
    };
    sample(0);
    const t0 = Date.now();
    const cpu0 = cpuNow(postmaster);
    let drawnAll = 0;
    for (let i = 1; i <= PAGES; i++) {
      const s = screens[i % screens.length]!;
      if ((await open(FRESH ? `${s.path}?row=${i}` : s.path, i % 2 === 1)).drawn) drawnAll++;
      if (i % Math.max(1, Math.floor(PAGES / 10)) === 0) {
        sample(i);
        log(`  ${i} pages: RSS ${memory.at(-1)!.rssMb.toFixed(0)} MB, heap ${memory.at(-1)!.heapMb.toFixed(0)} MB (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
      }
    }
    const cpu1 = cpuNow(postmaster);

    log('');
    log(`Drawn first pages at full size; ${new Date().toISOString()}; load average ${loadBefore.map((l) => l.toFixed(1)).join(' ')} before, ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} after`);
    log('CPU a page: this process (the app and its drawing worker) + the bench\'s PostgreSQL, one page at a time (half as a phone, half as a desktop).');
    log('drawn: each time at another address, so drawn anew; kept: the same address again, nothing changed meanwhile (decision 054).');
    log('| screen | page | drawn | p50 ms | CPU a page, process + PostgreSQL (ms) |');
    log('|---|---|--:|--:|---|');
    for (const r of rows) log(`| ${r.name} (${r.path}) | ${r.how} | ${r.drawn}/${EACH} | ${ms(r.p50)} | ${ms(r.cpuProc)} + ${ms(r.cpuPg)} |`);
    log('');
    log(`${PAGES} pages in a row${FRESH ? ', each at another address (drawn anew)' : ' (kept, once drawn)'}: ${drawnAll} drawn, ${((cpu1.proc - cpu0.proc) / PAGES).toFixed(1)} ms of the process's CPU a page; memory after a collection:`);
    log(`| pages | RSS MB | heap MB |`);
    log('|--:|--:|--:|');
    for (const m of memory) log(`| ${m.pages} | ${m.rssMb.toFixed(0)} | ${m.heapMb.toFixed(1)} |`);
    const file = path.join(dataDir, 'bench-paint.json');
    fs.writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), loadBefore, loadAfter: os.loadavg(), screens: rows, pages: PAGES, drawn: drawnAll, cpuPerPage: (cpu1.proc - cpu0.proc) / PAGES, memory }, null, 2));
    log(`Written to ${file}.`);
  } finally {
    await app?.close().catch(() => {});
    await handle?.close().catch(() => {});
    await db.stop();
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (e) => {
    process.stderr.write(`bench:paint failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
