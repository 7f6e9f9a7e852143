// npm run backup [-- --data-dir DIR]: one backup now, into BACKUP_DIR (default DATA_DIR/backups), or
// with STORAGE=s3 into the store's backups/ beside the files (where every instance lists it),
// whether the CRM runs or not: while it runs, its database is read through the address it started
// it on; when it is stopped, the embedded PostgreSQL is started for the time of the backup.
import 'dotenv/config';
import path from 'node:path';
import fs from 'node:fs';
import pg from 'pg';
import { createBackup } from '../apps/server/src/modules/backup/backup.ts';
import { createFileStorage } from '../apps/server/src/storage/file-storage.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../apps/server/src/db/embedded.ts';
import { lockDataDir, DataDirLockedError } from '../apps/server/src/lib/data-dir-lock.ts';
import { appVersion, fail, megabytes, parseArgs, runningEmbeddedUrl, say, settings } from './backup-cli.ts';

const args = parseArgs(process.argv.slice(2), []);
if (args.positional.length) fail('Usage: npm run backup [-- --data-dir DIR]', 2);
const config = settings(args.dataDir);

let url = config.databaseUrl;
let embedded: EmbeddedPostgres | undefined;
let release: (() => void) | undefined;
try {
  if (!url) {
    try {
      release = lockDataDir(config.dataDir);
    } catch (e) {
      if (!(e instanceof DataDirLockedError)) throw e;
      url = runningEmbeddedUrl(config.dataDir);
      if (!url) fail(`${e.message}\nIts database could not be found: try again in a moment, or use "Back up now" on its Jobs page.`);
      say('The CRM is running: backing up from its database.');
    }
    if (!url) {
      if (!fs.existsSync(path.join(config.dataDir, 'postgres', 'pgdata', 'PG_VERSION'))) fail(`There is no database in ${config.dataDir} to back up.`);
      say(`Starting the embedded PostgreSQL of ${config.dataDir}...`);
      embedded = await startEmbeddedPostgres(path.join(config.dataDir, 'postgres'));
      url = embedded.url;
    }
  }
  const client = new pg.Client({ connectionString: url, application_name: 'agency-crm backup' });
  await client.connect();
  try {
    // The stored files from where the CRM keeps them: DATA_DIR/files, or the S3 store (STORAGE=s3).
    const storage = await createFileStorage(config.dataDir, config.s3);
    const area = storage.backups?.();
    const b = await createBackup({ client, dataDir: config.dataDir, dir: config.backup.dir, keep: config.backup.keep, timeZone: config.timeZone, appVersion, storage, area });
    const rows = b.manifest.tables.reduce((n, t) => n + t.rows, 0);
    say(`Backup written: ${b.file}`);
    say(`  ${megabytes(b.size)}; ${b.manifest.tables.length} tables, ${rows} rows, ${b.manifest.files.count} files (${megabytes(b.manifest.files.bytes)}); ${(b.ms / 1000).toFixed(1)} s`);
    say(`  Restore it with: npm run restore -- ${area ? `--from-store ${b.name}` : b.file}`);
  } finally {
    await client.end();
  }
} catch (e) {
  process.stderr.write(`The backup failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
} finally {
  await embedded?.stop();
  release?.();
}
