// A second (third) CRM process on a test's database, killed with a real kill -9 by the tests of
// decision 104: node --import tsx test/app-child.ts <database url> <data folder> <mode> [mailbox id]
// Built as the test harness builds an app (same database and data folder: the secrets' key is kept
// there), its settings from the test's own plus CHILD_ENV (a JSON object of settings).
//   sync       syncs the mailbox once; says "syncing", then its result and "done".
//   jobs       the job runner on (its job lease CHILD_JOB_LEASE_SECONDS), as a running instance; says "ready".
//   sweep      the housekeeping's sweep of pending stored files once, with the grace period given
//              (seconds, after the mode); says "sweeping", then how many it removed and "done".
//   call       one API call made in this process (app.inject), described by the JSON after the mode:
//              { method, url, token, fields?, files?: [{ field, name, base64, type }] } (fields and
//              files: a multipart form, none without them); says "calling", then {"status","body"} and "done".
//   sync-loop  syncs the mailbox again and again, as instances polling one mailbox do, its log
//              (the sync lease taken and given back) on standard output as JSON lines.
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { connectDb } from '../src/db/client.ts';
import { syncMailbox } from '../src/modules/mail/mail-sync.ts';
import { sweepPendingFiles } from '../src/storage/pending-files.ts';
import { multipartForm, type FormPart } from './multipart.ts';

const [dbUrl, dataDir, mode, id] = process.argv.slice(2);
const extra = JSON.parse(process.env.CHILD_ENV ?? '{}') as Record<string, string>;
const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir!, PASSWORD_HASH_FAST: 'true', LOG_LEVEL: 'silent', ...extra });
const handle = connectDb(dbUrl!, 5, { timeZone: config.timeZone });

if (mode === 'jobs') {
  const app = await buildApp({ config, db: handle.db, jobs: { leaseSeconds: Number(process.env.CHILD_JOB_LEASE_SECONDS ?? 60), pollMs: 200 } });
  await app.ready();
  process.stdout.write('ready\n');
  const keep = setInterval(() => {}, 60_000);
  process.on('SIGTERM', () => {
    clearInterval(keep);
    void app.close().then(() => handle.close());
  });
} else if (mode === 'sync') {
  const app = await buildApp({ config, db: handle.db, jobs: false });
  await app.ready();
  process.stdout.write('syncing\n');
  const r = await syncMailbox(app, Number(id));
  process.stdout.write(`${JSON.stringify({ result: r })}\ndone\n`);
  await app.close();
  await handle.close();
} else if (mode === 'sweep') {
  const app = await buildApp({ config, db: handle.db, jobs: false });
  await app.ready();
  process.stdout.write('sweeping\n');
  const removed = await sweepPendingFiles(app, Number(id));
  process.stdout.write(`${JSON.stringify({ removed })}\ndone\n`);
  await app.close();
  await handle.close();
} else if (mode === 'call') {
  type Call = { method: 'GET' | 'POST' | 'DELETE'; url: string; token: string; fields?: Record<string, string>; files?: { field: string; name: string; base64: string; type?: string }[] };
  const c = JSON.parse(id!) as Call;
  const app = await buildApp({ config, db: handle.db, jobs: false, serveWeb: false });
  await app.ready();
  const parts: FormPart[] = [
    ...Object.entries(c.fields ?? {}).map(([field, value]) => ({ field, value })),
    ...(c.files ?? []).map((f) => ({ field: f.field, name: f.name, data: Buffer.from(f.base64, 'base64'), type: f.type })),
  ];
  const form = parts.length ? multipartForm(parts) : { payload: undefined, headers: {} };
  process.stdout.write('calling\n');
  const res = await app.inject({ method: c.method, url: c.url, payload: form.payload, headers: { ...form.headers, authorization: `Bearer ${c.token}` } });
  process.stdout.write(`${JSON.stringify({ status: res.statusCode, body: res.body })}\ndone\n`);
  await app.close();
  await handle.close();
} else if (mode === 'sync-loop') {
  const app = await buildApp({ config, db: handle.db, jobs: false, logger: { level: 'debug' } });
  await app.ready();
  for (;;) {
    const r = await syncMailbox(app, Number(id));
    process.stdout.write(`${JSON.stringify({ result: r })}\n`);
    // Asked again a moment later, as a poll would.
    await new Promise((done) => setTimeout(done, 100));
  }
} else {
  throw new Error(`unknown mode ${mode}`);
}
