// npm run restore -- <backup file> [--data-dir DIR] [--force]: puts a backup (npm run backup, or
// DATA_DIR/backups/crm-*.tar.gz) back into a DATA_DIR: its database (the embedded PostgreSQL, or
// DATABASE_URL) and its stored files. Refuses a DATA_DIR that holds a database already unless
// --force, which moves what it replaces aside (DATA_DIR/replaced-<time>/) rather than deleting it;
// the tables of a DATABASE_URL are replaced in the restore's one transaction (a restore that fails
// leaves them as they were), by its owner, no superuser needed, and only while nothing else (a CRM
// running on the same DATABASE_URL) is connected to that database.
// npm run restore -- --from-store <name|latest> [...]: the same with a backup kept in the S3 store's
// backups/ (STORAGE=s3, decision 093), fetched first into DATA_DIR and removed again afterwards.
import 'dotenv/config';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { BackupRefused, RESTORE_APP, checkManifest, checkRestoreSpace, fetchKeptBackup, readManifest, refuseWhileConnected, restoreBackup, verifyBackup } from '../apps/server/src/modules/backup/backup.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../apps/server/src/db/embedded.ts';
import { lockDataDir, DataDirLockedError } from '../apps/server/src/lib/data-dir-lock.ts';
import { fail, megabytes, parseArgs, say, settings } from './backup-cli.ts';
import { createFileStorage } from '../apps/server/src/storage/file-storage.ts';

const args = parseArgs(process.argv.slice(2), ['--force', '--from-store']);
if (args.positional.length !== 1) fail('Usage: npm run restore -- <backup file> [--data-dir DIR] [--force]\n   or: npm run restore -- --from-store <backup name|latest> [--data-dir DIR] [--force]', 2);
const force = args.flags.has('--force');
const config = settings(args.dataDir);
const dataDir = config.dataDir;
let file = path.resolve(args.positional[0]!);
let label = path.basename(file);
if (args.flags.has('--from-store')) {
  const area = config.s3 ? (await createFileStorage(dataDir, config.s3)).backups?.() : undefined;
  if (!area) fail('--from-store takes a backup from the S3 store (STORAGE=s3 and its S3_* settings); these settings keep files on local disk.', 2);
  fs.mkdirSync(dataDir, { recursive: true });
  file = path.join(dataDir, `.restoring-${process.pid}.tar.gz`);
  const fetched = file;
  process.on('exit', () => fs.rmSync(fetched, { force: true }));
  try {
    say(`Fetching ${args.positional[0]} from ${area.where}...`);
    const got = await fetchKeptBackup(area, args.positional[0]!, file);
    say(`Fetched ${got.name} (${megabytes(got.size)}).`);
    label = got.name;
  } catch (e) {
    fail(`Not restored: ${e instanceof Error ? e.message : String(e)}`);
  }
}
if (!fs.existsSync(file) || !fs.statSync(file).isFile()) fail(`No such backup file: ${file}`, 2);

// The backup first: a file this CRM cannot restore is refused before anything is touched.
let manifest;
try {
  manifest = await readManifest(file);
  checkManifest(manifest);
} catch (e) {
  if (e instanceof BackupRefused) fail(`Not restored: ${e.message}`);
  throw e;
}
const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
say(`Backup of ${manifest.createdAt} (CRM ${manifest.appVersion}, migration ${manifest.migration.tag}): ${manifest.tables.length} tables, ${rows} rows, ${manifest.files.count} files (${megabytes(manifest.files.bytes)}).`);

let release: () => void;
try {
  release = lockDataDir(dataDir);
} catch (e) {
  if (e instanceof DataDirLockedError) fail(`${e.message}\nStop the CRM before restoring into its DATA_DIR.`);
  throw e;
}

const filesDir = path.join(dataDir, 'files');
const hasFiles = fs.existsSync(filesDir) && fs.readdirSync(filesDir).some((n) => !n.startsWith('.'));
const aside = path.join(dataDir, `replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`);
let embedded: EmbeddedPostgres | undefined;
let url = config.databaseUrl;
let replace = false;
/** What this run made, removed again should the restore fail. */
const made: string[] = [];
try {
  if (url) {
    const c = new pg.Client({ connectionString: url, application_name: RESTORE_APP });
    await c.connect();
    try {
      // Never under a running CRM (or anyone else), --force or not; checked again in the restore's transaction.
      await refuseWhileConnected(c, 0);
      const n = (await c.query<{ n: number }>(`select count(*)::int as n from pg_tables where schemaname = 'public'`)).rows[0]!.n;
      if ((n > 0 || hasFiles) && !force) {
        throw new BackupRefused(`The database of DATABASE_URL already holds ${n} tables${hasFiles ? `, and ${filesDir} holds files` : ''}. To replace them with the backup, run again with --force.`);
      }
      replace = n > 0;
      if (n > 0) say(`--force: the ${n} tables of the database of DATABASE_URL are replaced in one transaction (kept as they are if the restore fails).`);
    } finally {
      await c.end();
    }
  }
  // Room for what it unpacks, checked before anything is moved aside or started.
  await checkRestoreSpace(manifest, dataDir, !url);
  if (!url) {
    const pgDir = path.join(dataDir, 'postgres');
    const hasDb = fs.existsSync(path.join(pgDir, 'pgdata', 'PG_VERSION'));
    if ((hasDb || hasFiles) && !force) {
      throw new BackupRefused(
        `${dataDir} already holds ${hasDb ? 'a database' : ''}${hasDb && hasFiles ? ' and ' : ''}${hasFiles ? 'stored files' : ''}. ` +
          'To replace them with the backup, run again with --force (they are moved aside, not deleted), or give another folder with --data-dir.',
      );
    }
    if (hasDb || hasFiles) {
      say('Checking the whole backup before anything is replaced...');
      await verifyBackup(file, manifest);
      fs.mkdirSync(aside, { recursive: true });
      for (const name of ['postgres', 'files']) if (fs.existsSync(path.join(dataDir, name))) fs.renameSync(path.join(dataDir, name), path.join(aside, name));
      say(`--force: the database and files it replaces were moved to ${aside} (delete that folder once the restore is checked).`);
    }
    made.push(pgDir);
    say(`Starting an embedded PostgreSQL for ${dataDir}...`);
    embedded = await startEmbeddedPostgres(pgDir);
    url = embedded.url;
  }
  // With STORAGE=s3 the files go back into the store (each under its own stored name).
  const storage = config.s3 ? await createFileStorage(dataDir, config.s3) : undefined;
  if (storage) say(`The stored files go to ${storage.where}.`);
  const r = await restoreBackup({ file, url: url!, dataDir, replace, replacedDir: aside, log: say, databaseInDataDir: !config.databaseUrl, storage });
  if (hasFiles && config.databaseUrl) say(`--force: the files it replaced were moved to ${aside} (delete that folder once the restore is checked).`);
  await embedded?.stop();
  embedded = undefined;
  say('');
  say(`Restored ${label} into ${dataDir}: ${r.tables} tables, ${r.rows} rows, ${r.files} files (${megabytes(r.bytes)})${r.migratedTo !== r.manifest.migration.tag ? `, migrated up to ${r.migratedTo}` : ''}.`);
  say('Start the CRM with npm start.');
} catch (e) {
  await embedded?.stop();
  for (const p of made) fs.rmSync(p, { recursive: true, force: true });
  // The embedded database and files it was to replace go back where they were.
  for (const name of ['postgres', 'files']) {
    const from = path.join(aside, name);
    if (fs.existsSync(from) && !fs.existsSync(path.join(dataDir, name))) fs.renameSync(from, path.join(dataDir, name));
  }
  if (fs.existsSync(aside) && fs.readdirSync(aside).length === 0) fs.rmdirSync(aside);
  process.stderr.write(`Not restored: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
} finally {
  release();
}
