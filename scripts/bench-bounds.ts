// npm run bench:bounds — no single request stops the server (decision 056), measured.
//
//   npm run bench:bounds [-- --interval 100]
//
// Starts the app on an embedded PostgreSQL under DATA_DIR (default ./data/bench-bounds) or on
// DATABASE_URL, then sends the worst request of each kind one after another (a refused 500 MB body,
// a 2 GB upload said and unsaid, the worst spreadsheets an administrator can upload) while another
// client reads the health check every --interval ms. Prints, per request, its answer, how long it
// took, what the server read of it, and the health check's latency meanwhile (p50, p99, max; the
// goal: no answer over 1 s). Nothing is asserted: the numbers are for the decision records.
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { connectDb } from '../apps/server/src/db/client.ts';
import { users } from '../apps/server/src/db/schema/index.ts';
import { hashPassword } from '../apps/server/src/lib/passwords.ts';
import { sendBody } from '../apps/server/test/wire.ts';
import { multipartForm } from '../apps/server/test/multipart.ts';
import { zip } from '../apps/server/test/zip.ts';
import { openBenchDatabase } from './generate-large.ts';

const root = path.resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const at = argv.indexOf('--interval');
const INTERVAL = at >= 0 ? Number(argv[at + 1]) : 100;
const MB = 1024 * 1024;
const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(root, 'data/bench-bounds'));
const log = (line = '') => process.stdout.write(`${line}\n`);

const db = await openBenchDatabase({ dataDir, log: (m: string) => log(`  ${m}`) });
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: db.url, LOG_LEVEL: 'warn', BACKUPS: 'false', DEMO_DATA: 'false', FIRST_PAINT: 'false' });
const handle = connectDb(db.url, 10, { timeZone: config.timeZone });
const app = await buildApp({ config, db: handle.db, serveWeb: false, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

const email = `bench-bounds-${Date.now()}@agency.test`;
await handle.db.insert(users).values({ email, username: email, passwordHash: await hashPassword('bench-bounds-password', true), roles: ['admin'] });
const login = await fetch(`${base}/api/authenticate/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: email, password: 'bench-bounds-password' }) });
const token = ((await login.json()) as { token: string }).token;
const auth = { authorization: `Bearer ${token}` };

/** The health check's latencies while `run` runs, one request every INTERVAL ms (a new one only once the last answered). */
async function beside<T>(run: () => Promise<T>): Promise<{ result: T; ms: number; health: number[] }> {
  const health: number[] = [];
  let going = true;
  const agent = new http.Agent({ keepAlive: true });
  const poll = (async () => {
    while (going) {
      const started = performance.now();
      await new Promise<void>((resolve) => {
        http.get(`${base}/api/health`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve());
        }).on('error', () => resolve());
      });
      health.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, INTERVAL));
    }
  })();
  const started = performance.now();
  const result = await run();
  const ms = performance.now() - started;
  going = false;
  await poll;
  agent.destroy();
  return { result, ms, health };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : 0;
};

const sheetXml = () => {
  const cell = '<c t="inlineStr"><is><t>Παπαδόπουλος</t></is></c>';
  const row = `<row>${cell.repeat(40)}</row>`;
  return `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${row.repeat(Math.floor((198 * MB) / Buffer.byteLength(row)))}</sheetData></worksheet>`;
};
const importForm = (name: string, data: Buffer) => multipartForm([{ field: 'kind', value: 'owners' }, { field: 'files', name, data }]);
const fileHead = Buffer.from('--x\r\nContent-Disposition: form-data; name="files"; filename="huge.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n');

/** A request, and what it sends made beforehand (this process is the server too: making a file here would hold the health check). */
type Case = { name: string; prepare?: () => { payload: Buffer; headers: Record<string, string> }; send: (made?: { payload: Buffer; headers: Record<string, string> }) => Promise<{ status: number; read?: number }> };
const upload = async (made?: { payload: Buffer; headers: Record<string, string> }) => {
  const r = await fetch(`${base}/api/import/upload`, { method: 'POST', headers: { ...auth, ...made!.headers }, body: new Uint8Array(made!.payload) });
  await r.arrayBuffer();
  return { status: r.status };
};
const cases: Case[] = [
  { name: 'anonymous 500 MB upload', send: async () => { const a = await sendBody(`${base}/api/files`, { total: 500 * MB, headers: { 'content-type': 'multipart/form-data; boundary=x' } }); return { status: a.status, read: a.taken }; } },
  { name: 'signed-in 500 MB body of a wrong type', send: async () => { const a = await sendBody(`${base}/api/account/update`, { total: 500 * MB, contentLength: false, headers: { ...auth, 'content-type': 'application/xml' } }); return { status: a.status, read: a.taken }; } },
  { name: '2 GB upload, its size said', send: async () => { const a = await sendBody(`${base}/api/files`, { total: 2048 * MB, headers: { ...auth, 'content-type': 'multipart/form-data; boundary=x' } }); return { status: a.status, read: a.taken }; } },
  { name: '2 GB upload in chunks', send: async () => { const a = await sendBody(`${base}/api/files`, { total: 2048 * MB, head: fileHead, contentLength: false, headers: { ...auth, 'content-type': 'multipart/form-data; boundary=x' } }); return { status: a.status, read: a.taken }; } },
  { name: 'CSV of 130,000 rows (0.5 MB)', prepare: () => importForm('o.csv', Buffer.from(`lastName;phone\n${'Παπαδόπουλος;2310123456\n'.repeat(130_000)}`)), send: upload },
  {
    name: 'CSV of 46 MB',
    prepare: () => {
      const row = `Παπαδόπουλος;Γεώργιος;2310123456;${'x'.repeat(300)}\n`;
      return importForm('o.csv', Buffer.from(`lastName;firstName;phone;notes\n${row.repeat(Math.ceil((46 * MB) / Buffer.byteLength(row)))}`));
    },
    send: upload,
  },
  {
    name: 'xlsx of 11 MB that unpacks to 198 MB',
    prepare: () => importForm('o.xlsx', zip([{ name: '[Content_Types].xml', data: '<Types/>' }, { name: 'xl/worksheets/sheet1.xml', data: sheetXml(), deflate: true }])),
    send: upload,
  },
];

log(`\nbench:bounds on ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; health check every ${INTERVAL} ms\n`);
log('| request | answer | its time (s) | read by the server (MB) | health p50 (ms) | p99 | max | over 1 s |');
log('|---|--:|--:|--:|--:|--:|--:|--:|');
for (const c of cases) {
  const made = c.prepare?.();
  const { result, ms, health } = await beside(() => c.send(made));
  const read = result.read === undefined ? '—' : (result.read / MB).toFixed(1);
  log(`| ${c.name} | ${result.status} | ${(ms / 1000).toFixed(1)} | ${read} | ${pct(health, 50).toFixed(1)} | ${pct(health, 99).toFixed(1)} | ${Math.max(0, ...health).toFixed(1)} | ${health.filter((h) => h > 1000).length} of ${health.length} |`);
}
log(`\nload after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
await app.close();
await handle.close();
await db.stop();
