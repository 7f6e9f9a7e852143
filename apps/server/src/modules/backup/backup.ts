import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { MIGRATIONS_DIR, applyMigrationsInTransaction } from '../../db/migrate.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import { DEMO_SEED_DDL } from '../../db/seed/demo-table.ts';
import type { TBackupFailureReason } from '@crm/contract';
import { TarDamaged, endTar, readTar, writeTarEntry } from './tar.ts';
import { getFileStorage, shardOf, type BackupArea, type FileStorage } from '../../storage/file-storage.ts';

/**
 * Backups (decision 043): one file `crm-YYYY-MM-DD-HHmm.tar.gz` holding
 *  - manifest.json: the app's version and migration, the time, each table's columns and row count,
 *    each sequence's value;
 *  - db/<table>.copy: every table of one consistent snapshot (one REPEATABLE READ, READ ONLY
 *    transaction), in COPY's text format, streamed from PostgreSQL to disk;
 *  - files/..: the stored files (photos, documents, attachments) as they lie under DATA_DIR/files.
 * Written under a temporary name and renamed once complete, so a file named crm-*.tar.gz is a whole
 * backup. Restored by restoreBackup (npm run restore).
 */
export const BACKUP_FORMAT = 1;
const PREFIX = 'crm-';
const SUFFIX = '.tar.gz';
const PARTIAL = '.partial';

export type BackupManifest = {
  format: number;
  app: 'agency-crm';
  appVersion: string;
  /** The last migration applied to the database (the journal's tag and its time stamp). */
  migration: { tag: string; when: number };
  createdAt: string;
  timeZone: string;
  /** `bytes`: the size of the table's db/<name>.copy (absent in backups made before it was recorded). */
  tables: { name: string; columns: string[]; rows: number; bytes?: number }[];
  /** Sequences' last values (null: never used); a restore never sets one below its column's max. */
  sequences: { name: string; value: number | null }[];
  files: { count: number; bytes: number };
};

export type BackupFile = { name: string; file: string; size: number; at: Date };
export type BackupResult = BackupFile & { manifest: BackupManifest; ms: number };

type Journal = { entries: { idx: number; tag: string; when: number }[] };
export function readJournal(dir = MIGRATIONS_DIR): Journal {
  return JSON.parse(fs.readFileSync(path.join(dir, 'meta/_journal.json'), 'utf8')) as Journal;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The backups in a folder, newest first (complete ones only). */
export function listBackups(dir: string): BackupFile[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (e) {
    // No folder (yet), or a file where it should be: none.
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw e;
  }
  return names
    .filter((n) => n.startsWith(PREFIX) && n.endsWith(SUFFIX))
    .flatMap((name) => {
      try {
        const st = fs.statSync(path.join(dir, name));
        return st.isFile() ? [{ name, file: path.join(dir, name), size: st.size, at: st.mtime }] : [];
      } catch {
        return [];
      }
    })
    .sort(newestFirst);
}

const newestFirst = (a: BackupFile, b: BackupFile) => b.at.getTime() - a.at.getTime() || (a.name < b.name ? 1 : -1);

/**
 * The backups kept in a store's area (STORAGE=s3: every instance's, decision 093), else in the
 * folder on this machine; newest first.
 */
export async function listKeptBackups(dir: string, area?: BackupArea): Promise<BackupFile[]> {
  if (!area) return listBackups(dir);
  return (await area.list())
    .filter((b) => b.name.startsWith(PREFIX) && b.name.endsWith(SUFFIX))
    .map((b) => ({ ...b, file: `${area.where}${b.name}` }))
    .sort(newestFirst);
}

/**
 * Copies a backup kept in a store's area to a local file (a restore reads it twice: checked whole
 * first, then loaded), streamed, its size checked; answers its size. `name` "latest": the newest.
 */
export async function fetchKeptBackup(area: BackupArea, name: string, toFile: string): Promise<{ name: string; size: number }> {
  const chosen = name === 'latest' ? (await listKeptBackups('', area))[0]?.name : name;
  const kept = chosen ? await area.get(chosen) : undefined;
  if (!chosen || !kept) throw new BackupRefused(`There is no backup ${name === 'latest' ? 'at all' : name} in ${area.where}.`);
  await pipeline(kept.body, fs.createWriteStream(toFile, { mode: 0o600 }));
  const size = fs.statSync(toFile).size;
  if (size !== kept.size) throw new BackupRefused(`${chosen} came from ${area.where} with ${size} bytes where the store says ${kept.size}: try again.`);
  return { name: chosen, size };
}

/** Keeps the newest `keep` backups of a store's area and deletes the others (keep 0: deletes none). */
export async function pruneKeptBackups(area: BackupArea, keep: number): Promise<string[]> {
  if (keep <= 0) return [];
  const removed: string[] = [];
  for (const b of (await listKeptBackups('', area)).slice(keep)) {
    await area.delete(b.name);
    removed.push(b.name);
  }
  return removed;
}

/**
 * Keeps the newest `keep` backups and deletes the others (keep 0: deletes none), and removes what
 * a backup interrupted more than a day ago left behind.
 */
export function pruneBackups(dir: string, keep: number): string[] {
  const removed: string[] = [];
  if (keep > 0) {
    for (const b of listBackups(dir).slice(keep)) {
      fs.rmSync(b.file, { force: true });
      removed.push(b.name);
    }
  }
  for (const n of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (!n.endsWith(PARTIAL)) continue;
    const p = path.join(dir, n);
    try {
      if (Date.now() - fs.statSync(p).mtimeMs > 24 * 3600 * 1000) fs.rmSync(p, { recursive: true, force: true });
    } catch {
      /* gone meanwhile */
    }
  }
  return removed;
}

/**
 * A free name for a backup made at `at`: crm-2026-05-02-0330.tar.gz (the agency's clock), -2, -3...
 * if taken; claimed by making its working folder, so that two backups of the same minute (the daily
 * one and npm run backup) never share a name or a folder.
 */
async function claimBackupName(dir: string, at: Date, timeZone: string, area: BackupArea | undefined, client: pg.ClientBase): Promise<{ name: string; work: string; lease?: string }> {
  const local = toLocalDateTime(at, timeZone)!; // YYYY-MM-DDTHH:mm:ss
  const base = `${PREFIX}${local.slice(0, 10)}-${local.slice(11, 13)}${local.slice(14, 16)}`;
  for (let i = 1; ; i++) {
    const name = `${base}${i > 1 ? `-${i}` : ''}${SUFFIX}`;
    if (fs.existsSync(path.join(dir, name)) || fs.existsSync(path.join(dir, name + PARTIAL))) continue;
    // In a store, one another instance made that minute (npm run backup beside the daily one).
    if (area && (await area.has(name))) continue;
    // Or one another instance is making now (the daily one beside one asked for on another
    // instance): it reaches the store only once whole, so its name is claimed in the database
    // until then. A claim whose instance died goes a day later (work_leases' own clean-up).
    let lease: string | undefined;
    if (area) {
      lease = `backup-name:${area.where}${name}`;
      const claimed = await client.query(
        `insert into work_leases (key, holder, until) values ($1, $2, now() + interval '1 day') on conflict (key) do nothing returning key`,
        [lease, `backup:${process.pid}:${randomUUID()}`],
      );
      if (!claimed.rows.length) continue;
    }
    const work = path.join(dir, `.${name}${PARTIAL}`);
    try {
      fs.mkdirSync(work, { mode: 0o700 });
      return { name, work, lease };
    } catch (e) {
      if (lease) await client.query('delete from work_leases where key = $1', [lease]);
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

/**
 * The stored files (not the uploads still being checked, nor half-written ones), from the store
 * (local disk or S3): `rel` is where the backup keeps each, files/<shard>/<name>, as local disk lays
 * them out, whatever the store.
 */
async function storedFiles(storage: FileStorage): Promise<{ rel: string; name: string; size: number }[]> {
  const out: { rel: string; name: string; size: number }[] = [];
  for await (const f of storage.list()) out.push({ rel: `${shardOf(f.name)}/${f.name}`, name: f.name, size: f.size });
  return out;
}

/** The last migration applied to the database, as the journal names it. */
async function appliedMigration(client: pg.ClientBase): Promise<{ tag: string; when: number }> {
  const r = await client.query<{ created_at: string }>('select created_at::text from drizzle.__drizzle_migrations order by created_at desc limit 1');
  const when = Number(r.rows[0]?.created_at ?? 0);
  const entry = readJournal().entries.find((e) => e.when === when);
  if (!entry) throw new Error(`The database's last migration (${when}) is not one this CRM knows: is the CRM older than its database?`);
  return { tag: entry.tag, when };
}

/** How a restore's connections name themselves (a backup waits for none; a restore refuses all others). */
export const RESTORE_APP = 'agency-crm restore';

/** Bytes this process may still write on a disk: the free space of the disk holding `dir`. */
export type FreeSpace = (dir: string) => Promise<number>;

/** The free space (for an unprivileged user) on the disk of `dir`, or of the nearest folder above it that exists. */
export const freeBytes: FreeSpace = async (dir) => {
  for (let p = path.resolve(dir); ; p = path.dirname(p)) {
    try {
      const s = await fs.promises.statfs(p);
      return s.bavail * s.bsize;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || path.dirname(p) === p) throw e;
    }
  }
};

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Not enough free space for what is about to be written (a full disk: the "diskFull" reason). */
export class NotEnoughSpace extends Error {
  readonly code = 'ENOSPC';
}

export type BackupOptions = {
  /** A connection of its own for the time of the backup (the snapshot's transaction is on it). */
  client: pg.ClientBase;
  dataDir: string;
  /** Where backups go (DATA_DIR/backups or BACKUP_DIR). */
  dir: string;
  /** How many to keep (0: all). */
  keep: number;
  timeZone: string;
  appVersion: string;
  signal?: AbortSignal;
  /** The free space of the backups' disk (statfs; replaced in tests). */
  freeSpace?: FreeSpace;
  /** Where the stored files are read from (default: the store chosen for dataDir, local disk or S3). */
  storage?: FileStorage;
  /**
   * Where the archive goes instead of `dir` (STORAGE=s3: the store's backups/, decision 093); `dir`
   * then holds only the tables' copies while the archive is made.
   */
  area?: BackupArea;
};

/**
 * What a backup needs on its disk at most: the table copies it writes first and the archive beside
 * them, estimated as the database's size on disk (its indexes included, which the copies leave out,
 * while gzip makes the archive's part of it smaller) plus the stored files.
 */
async function backupNeeds(client: pg.ClientBase, files: { size: number }[]): Promise<{ database: number; files: number }> {
  const r = await client.query<{ n: string }>('select pg_database_size(current_database())::text as n');
  return { database: Number(r.rows[0]!.n), files: files.reduce((n, f) => n + f.size, 0) };
}

/**
 * Makes one backup: the snapshot's tables streamed to a working folder beside the backups (the
 * transaction lasts only that long), then the archive written through gzip under a temporary name,
 * synced, renamed; then the oldest beyond `keep` deleted.
 */
export async function createBackup(o: BackupOptions): Promise<BackupResult> {
  const started = Date.now();
  // Beside a restore it would wait on the tables the restore replaces, and its session would make
  // the restore roll back at the end (nothing else may be connected then).
  const restoring = await o.client.query(
    `select 1 from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and application_name = $1 limit 1`,
    [RESTORE_APP],
  );
  if (restoring.rows.length) throw new Error('A restore into this database is running: no backup is made until it has finished. Nothing was written.');
  // A disk that cannot hold it is refused before anything is written (and before older backups
  // are rotated out, which happens only once a new one is complete).
  const storage = o.storage ?? getFileStorage(o.dataDir);
  const needs = await backupNeeds(o.client, await storedFiles(storage));
  const free = await (o.freeSpace ?? freeBytes)(o.dir);
  // Into a store, only the tables' copies are written here.
  if (o.area) needs.files = 0;
  if (free < needs.database + needs.files) {
    throw new NotEnoughSpace(
      `Not enough free space for a backup in ${o.dir}: about ${mb(needs.database + needs.files)} needed (the database ${mb(needs.database)}${o.area ? '' : `, the stored files ${mb(needs.files)}`}), ${mb(free)} free. Nothing was written.`,
    );
  }
  fs.mkdirSync(o.dir, { recursive: true, mode: 0o700 });
  const at = new Date();
  const { name, work, lease } = await claimBackupName(o.dir, at, o.timeZone, o.area, o.client);
  const target = path.join(o.dir, name);
  const partial = target + PARTIAL;
  try {
    const tables: BackupManifest['tables'] = [];
    let sequences: BackupManifest['sequences'] = [];
    let migration: BackupManifest['migration'];
    await o.client.query('begin isolation level repeatable read, read only');
    try {
      // Values written as any server reads them back, whatever this connection's settings (a
      // DateStyle of 'SQL, DMY' wrote 26/11/2026 that a restore could not read; float digits cut).
      await o.client.query(`set local datestyle = 'ISO, YMD'; set local intervalstyle = 'postgres'; set local extra_float_digits = 3`);
      migration = await appliedMigration(o.client);
      const cols = await o.client.query<{ table: string; columns: string[] }>(`
        select c.relname as table, array_agg(a.attname::text order by a.attnum) as columns
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
        where n.nspname = 'public' and c.relkind = 'r'
        group by c.relname order by c.relname`);
      const seq = await o.client.query<{ name: string; value: string | null }>(
        `select sequencename as name, last_value::text as value from pg_sequences where schemaname = 'public' order by sequencename`,
      );
      sequences = seq.rows.map((r) => ({ name: r.name, value: r.value === null ? null : Number(r.value) }));
      for (const t of cols.rows) {
        o.signal?.throwIfAborted();
        const stream = o.client.query(copyTo(`copy ${ident(t.table)} (${t.columns.map(ident).join(', ')}) to stdout`));
        const copyFile = path.join(work, `${t.table}.copy`);
        await pipeline(stream, fs.createWriteStream(copyFile, { mode: 0o600 }));
        tables.push({ name: t.table, columns: t.columns, rows: stream.rowCount, bytes: fs.statSync(copyFile).size });
      }
      await o.client.query('commit');
    } catch (e) {
      await o.client.query('rollback').catch(() => {});
      throw e;
    }

    // Stored files are never changed in place (each has a new random name); one deleted since the
    // snapshot's listing is left out, one added after it is not needed by the snapshot.
    const files = await storedFiles(storage);
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      app: 'agency-crm',
      appVersion: o.appVersion,
      migration,
      createdAt: at.toISOString(),
      timeZone: o.timeZone,
      tables,
      sequences,
      files: { count: files.length, bytes: files.reduce((n, f) => n + f.size, 0) },
    };

    const gzip = zlib.createGzip({ level: 6 });
    // Into the store as it is made (the upload reads it part by part, its bytes counted on the way),
    // or into a file here.
    let size = 0;
    const counted = new Transform({ transform: (c: Buffer, _e, done) => ((size += c.length), done(null, c)) });
    const written = o.area
      ? Promise.all([
          pipeline(gzip, counted),
          // A store that refuses it stops the writing too (which would otherwise wait on it).
          o.area.put(name, counted).catch((e: unknown) => {
            gzip.destroy(e instanceof Error ? e : new Error(String(e)));
            throw e;
          }),
        ]).then(() => undefined)
      : pipeline(gzip, fs.createWriteStream(partial, { mode: 0o600, flags: 'wx' }));
    written.catch(() => {}); // awaited below; an early failure must not go unhandled meanwhile
    try {
      await writeArchive(gzip, manifest, work, storage, files, at, o.signal);
    } catch (e) {
      gzip.destroy();
      // The real cause (a full disk) rather than the stream's "could not be written".
      throw (await written.then(() => undefined, (err: unknown) => err)) ?? e;
    }
    await written;
    if (o.area) {
      await pruneKeptBackups(o.area, o.keep);
      pruneBackups(o.dir, 0); // what an interrupted one left here
      return { name, file: `${o.area.where}${name}`, size, at, manifest, ms: Date.now() - started };
    }
    const fh = await fs.promises.open(partial, 'r');
    await fh.sync();
    await fh.close();
    fs.renameSync(partial, target);
    pruneBackups(o.dir, o.keep);
    return { name, file: target, size: fs.statSync(target).size, at, manifest, ms: Date.now() - started };
  } catch (e) {
    fs.rmSync(partial, { force: true });
    throw e;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    // Whole in the store, or given up: the name needs no claim any more.
    if (lease) await o.client.query('delete from work_leases where key = $1', [lease]).catch(() => {});
  }
}

async function writeArchive(gzip: zlib.Gzip, manifest: BackupManifest, work: string, storage: FileStorage, files: { rel: string; name: string; size: number }[], at: Date, signal?: AbortSignal) {
    const json = Buffer.from(JSON.stringify(manifest, null, 2));
    await writeTarEntry(gzip, { path: 'manifest.json', size: json.length, mtime: at }, json);
    for (const t of manifest.tables) {
      signal?.throwIfAborted();
      const p = path.join(work, `${t.name}.copy`);
      await writeTarEntry(gzip, { path: `db/${t.name}.copy`, size: fs.statSync(p).size, mtime: at }, fs.createReadStream(p));
    }
    // A store's round trips, not its bytes, take the time: the next few small files are fetched
    // whole while one is written (decision 111). A large one streams when its turn comes.
    const ahead = new Map<number, Promise<{ body?: Buffer; error?: unknown }>>();
    let asked = 0;
    // The store's requests are given up with the backup (its signal), and when it fails half-way:
    // a store that stopped answering never holds an ended backup (decision 111).
    const fetches = new AbortController();
    const giveUp = () => fetches.abort(signal?.reason);
    signal?.addEventListener('abort', giveUp, { once: true });
    try {
      for (let i = 0; i < files.length; i++) {
        signal?.throwIfAborted();
        for (; asked < files.length && asked < i + FETCH_AHEAD; asked++) {
          if (files[asked]!.size <= SMALL_FILE) ahead.set(asked, wholeFile(storage, files[asked]!.name, fetches.signal).then((body) => ({ body }), (error: unknown) => ({ error })));
        }
        const f = files[i]!;
        const early = ahead.get(i);
        ahead.delete(i);
        const got = early ? await early : undefined;
        if (got?.error) throw got.error;
        // Deleted since the listing: left out (its record is gone from the snapshot, or goes with it).
        const body = got ? got.body : await storage.get(f.name, fetches.signal);
        if (!body) continue;
        await writeTarEntry(gzip, { path: `files/${f.rel}`, size: f.size, mtime: at }, body);
      }
    } finally {
      signal?.removeEventListener('abort', giveUp);
      // Given up half-way: what is still being fetched ahead is given up and let go (each answer's
      // failure is caught above).
      if (ahead.size) fetches.abort();
      await Promise.all(ahead.values());
    }
    await endTar(gzip);
    gzip.end();
}

/** Files at or under this size are fetched from the store ahead, or stored beside others, whole in memory. */
const SMALL_FILE = 1024 * 1024;
/** How many such files are on their way at once (at most 8 MB in memory). */
const FETCH_AHEAD = 8;

/** A stored file read whole; undefined when the store no longer has it. */
async function wholeFile(storage: FileStorage, name: string, signal: AbortSignal): Promise<Buffer | undefined> {
  const body = await storage.get(name, signal);
  if (!body) return undefined;
  const chunks: Buffer[] = [];
  for await (const c of body as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

/** An error and the errors it wraps (a pipeline's, a connection's cause). */
function* causes(e: unknown): Generator<{ code?: unknown; message?: unknown }> {
  for (let i = 0; e && typeof e === 'object' && i < 5; i++) {
    yield e as { code?: unknown; message?: unknown };
    e = (e as { cause?: unknown }).cause;
  }
}

/**
 * Why a backup failed, as the Jobs page explains it: the disk full (ours or PostgreSQL's), the
 * backup folder not writable (no right, a read-only disk, a file where the folder should be), the
 * database not answering, or something else.
 */
export function backupFailureReason(e: unknown): TBackupFailureReason {
  for (const c of causes(e)) {
    const code = typeof c.code === 'string' ? c.code : '';
    const message = typeof c.message === 'string' ? c.message : '';
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === '53100') return 'diskFull';
    if (['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST', 'EISDIR'].includes(code)) return 'notWritable';
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN', '57P01', '57P02', '57P03'].includes(code) || code.startsWith('08')) return 'databaseUnreachable';
    if (/Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(message)) return 'databaseUnreachable';
  }
  return 'other';
}

/** A backup this CRM cannot restore (made by a newer version, or not a backup of ours); nothing was changed. */
export class BackupRefused extends Error {}

/** Checks a backup's manifest against this CRM: what would be restored, or why not. */
export function checkManifest(m: BackupManifest): { newer: boolean; last: string } {
  if (m?.app !== 'agency-crm' || typeof m.format !== 'number' || !m.migration?.tag || !Array.isArray(m.tables)) {
    throw new BackupRefused('This file is not a backup of the agency CRM (it has no manifest.json of ours).');
  }
  if (m.format > BACKUP_FORMAT) throw new BackupRefused(`This backup was made by a newer version of the CRM (backup format ${m.format}). Update the CRM first, then restore it.`);
  const entries = readJournal().entries;
  const last = entries.at(-1)!;
  if (!entries.some((e) => e.tag === m.migration.tag)) {
    if (m.migration.when > last.when) {
      throw new BackupRefused(
        `This backup was made by a newer version of the CRM (${m.appVersion}, database migration ${m.migration.tag}); this CRM knows migrations up to ${last.tag}. ` +
          'Update the CRM (the same or a newer version), then restore it.',
      );
    }
    throw new BackupRefused(`This backup's database migration ${m.migration.tag} is not one this CRM knows: it cannot be restored by this version.`);
  }
  return { newer: false, last: last.tag };
}

/** A manifest lists tables, columns and sequences: a few kilobytes; it is read whole. */
const MAX_MANIFEST = 4 * 1024 * 1024;

/** Reads the manifest of a backup file (the archive's first entry). */
export async function readManifest(file: string): Promise<BackupManifest> {
  const input = fs.createReadStream(file).pipe(zlib.createGunzip());
  try {
    for await (const entry of readTar(input)) {
      if (entry.path !== 'manifest.json') break;
      if (entry.size > MAX_MANIFEST) throw new BackupRefused(`This file is not a backup of the agency CRM, or it is damaged (its manifest.json has ${entry.size} bytes).`);
      const chunks: Buffer[] = [];
      for await (const c of entry.body as AsyncIterable<Buffer>) chunks.push(c);
      return JSON.parse(Buffer.concat(chunks).toString('utf8')) as BackupManifest;
    }
  } catch (e) {
    if (e instanceof SyntaxError || e instanceof TarDamaged || (e as NodeJS.ErrnoException).code === 'Z_DATA_ERROR') throw new BackupRefused(`${file} is not a backup of the agency CRM, or it is damaged (${(e as Error).message}).`);
    throw e;
  } finally {
    input.destroy();
  }
  throw new BackupRefused('This file is not a backup of the agency CRM (it has no manifest.json of ours).');
}

/** A stored file's path inside files/, as the store names them (no way out of the folder). */
const SAFE_REL = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

const damaged = (e: unknown) => {
  const code = (e as NodeJS.ErrnoException).code;
  return e instanceof BackupRefused ? e : new BackupRefused(`The backup file is damaged or incomplete (${code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR' ? 'its compression does not check out' : (e as Error).message}).`);
};

/**
 * What an archive entry is, for the check and the restore alike: the manifest or a folder (skipped), a
 * table's rows (one the manifest lists), or a stored file under files/ whose path stays inside it.
 * Anything else is refused: a damaged backup, or a crafted one reaching out of the files folder.
 */
function entryOf(entry: { path: string; type: string }, byName: Map<string, BackupManifest['tables'][number]>) {
  if (entry.path === 'manifest.json' || entry.type === 'dir') return { kind: 'skip' } as const;
  const table = /^db\/([^/]+)\.copy$/.exec(entry.path)?.[1];
  if (table !== undefined) {
    const t = byName.get(table);
    if (!t) throw new BackupRefused(`The backup holds ${entry.path}, which its manifest does not list: it is damaged.`);
    return { kind: 'table', table: t } as const;
  }
  const rel = entry.path.startsWith('files/') ? entry.path.slice('files/'.length) : undefined;
  if (entry.type !== 'file' || rel === undefined || !SAFE_REL.test(rel) || rel.split('/').includes('..')) {
    throw new BackupRefused(`The backup holds an unexpected entry ${entry.path}: it is damaged or not ours.`);
  }
  return { kind: 'file', rel } as const;
}

/**
 * Keeps an archive to what its manifest declares, checked on each entry's header before its body is
 * read or written: the stored files together no larger than the manifest's files' bytes, and a table's
 * rows no larger than its recorded size (when the backup records it). A small crafted archive (gzip
 * packs a gigabyte of zeros into a megabyte) cannot fill the disk or the database this way.
 */
function withinManifest(manifest: BackupManifest) {
  let fileBytes = 0;
  const limit = Math.max(0, Number(manifest.files?.bytes) || 0);
  return (entry: { path: string; size: number }, what: ReturnType<typeof entryOf>) => {
    if (what.kind === 'file') {
      fileBytes += entry.size;
      if (fileBytes > limit) throw new BackupRefused(`The backup's files come to more than the ${limit} bytes its manifest lists (${entry.path} goes past it): it is damaged or not ours.`);
    } else if (what.kind === 'table' && typeof what.table.bytes === 'number' && entry.size > what.table.bytes) {
      throw new BackupRefused(`The table ${what.table.name} holds ${entry.size} bytes where the backup says ${what.table.bytes}: it is damaged or not ours.`);
    }
  };
}

/**
 * The entries of a backup that its manifest names (tables and stored files), in the archive's order,
 * each held to the manifest's sizes before its body is read; the archive is closed when the reader
 * stops, done or failed. The check and the restore read a backup this one way.
 */
async function* backupEntries(file: string, manifest: BackupManifest, byName: Map<string, BackupManifest['tables'][number]>) {
  const within = withinManifest(manifest);
  const input = fs.createReadStream(file).pipe(zlib.createGunzip());
  try {
    for await (const entry of readTar(input)) {
      const what = entryOf(entry, byName);
      within(entry, what);
      if (what.kind !== 'skip') yield { entry, what };
    }
  } finally {
    input.destroy();
  }
}

/** Refuses a backup some of whose tables never came. */
function refuseMissingTables(manifest: BackupManifest, seen: Set<string>) {
  const missing = manifest.tables.filter((t) => !seen.has(t.name)).map((t) => t.name);
  if (missing.length) throw new BackupRefused(`The backup is incomplete: the tables ${missing.join(', ')} are missing from it.`);
}

/**
 * Reads a whole backup once without changing anything: the archive whole (gzip's check sum, every
 * entry, the end), every table of its manifest there with the rows it says, the stored files'
 * names inside files/. A restore that replaces a database checks this before it touches it.
 */
export async function verifyBackup(file: string, manifest: BackupManifest): Promise<void> {
  const byName = new Map(manifest.tables.map((t) => [t.name, t]));
  const seen = new Set<string>();
  try {
    for await (const { entry, what } of backupEntries(file, manifest, byName)) {
      if (what.kind === 'table') {
        const t = what.table;
        // COPY's text format: one line a row (a newline inside a value is written \n).
        let rows = 0;
        for await (const chunk of entry.body as AsyncIterable<Buffer>) for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) rows++;
        if (rows !== t.rows) throw new BackupRefused(`The table ${t.name} holds ${rows} rows where the backup says ${t.rows}: the backup is damaged.`);
        seen.add(t.name);
        continue;
      }
      for await (const _ of entry.body as AsyncIterable<Buffer>) void _;
    }
  } catch (e) {
    throw damaged(e);
  }
  refuseMissingTables(manifest, seen);
}

/**
 * The other client sessions on the database a restore replaces: a CRM running on it (another
 * DATA_DIR, the same DATABASE_URL), psql, a report tool. A session of another database user shows
 * without its kind, name or address unless the restoring user may read all statistics; it is
 * counted all the same (autovacuum and the like belong to no user).
 */
export async function otherSessions(c: pg.ClientBase): Promise<{ pid: number; app: string; addr: string | null; hidden: boolean }[]> {
  const r = await c.query<{ pid: number; app: string | null; addr: string | null; hidden: boolean }>(`
    select pid, application_name as app, client_addr::text as addr, backend_type is null as hidden from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid()
      and (backend_type = 'client backend' or (backend_type is null and usesysid is not null))
    order by pid`);
  return r.rows.map((x) => ({ pid: x.pid, app: x.app ?? '', addr: x.addr, hidden: x.hidden }));
}

/** Refuses while other sessions are connected; one just closing (the script's own check) is waited for a moment. */
export async function refuseWhileConnected(c: pg.ClientBase, waitMs = 3000): Promise<void> {
  const until = Date.now() + waitMs;
  for (;;) {
    const others = await otherSessions(c);
    if (!others.length) return;
    if (Date.now() >= until) {
      const named = others.map((s) => `${s.app || 'no name'} ${s.hidden ? "of another database user, its address not shown to this one" : `from ${s.addr ?? 'this machine'}`}`);
      const list = [...new Set(named)].map((n) => `${n}${named.filter((x) => x === n).length > 1 ? ` (${named.filter((x) => x === n).length}×)` : ''}`).join('; ');
      throw new BackupRefused(
        `${others.length === 1 ? 'Another session is' : `${others.length} other sessions are`} connected to the database (${list}). ` +
          'Stop the CRM (and anything else using this database) before restoring into it; nothing was changed.',
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

export type RestoreResult = { manifest: BackupManifest; tables: number; rows: number; files: number; bytes: number; migratedTo: string };

export type RestoreOptions = {
  file: string;
  /** The database: empty, or (replace) one whose schema the backup replaces. */
  url: string;
  dataDir: string;
  /** Drop what the database holds (its public and drizzle schemas), in the restore's own transaction. */
  replace?: boolean;
  /** Where the stored files the backup replaces are moved (DATA_DIR/replaced-<time>); needed when DATA_DIR/files holds any. */
  replacedDir?: string;
  log?: (line: string) => void;
  /** The database lives in DATA_DIR (the embedded PostgreSQL): its rows need room on that disk too. */
  databaseInDataDir?: boolean;
  /** The free space of DATA_DIR's disk (statfs; replaced in tests). */
  freeSpace?: FreeSpace;
  /**
   * An S3-compatible store the files go to (STORAGE=s3) instead of DATA_DIR/files: each is put under
   * its stored name (names are random and never reused, so none the store holds is overwritten with
   * other bytes); those put are removed again when the restore fails.
   */
  storage?: FileStorage;
};

/**
 * Refuses a restore that DATA_DIR's disk cannot hold, before anything is unpacked: the stored files
 * as the manifest counts them (the archive cannot hold more, see withinManifest), and the tables'
 * rows when the database lives in DATA_DIR (their size as recorded; a backup made before sizes were
 * recorded counts its files only).
 */
export async function checkRestoreSpace(manifest: BackupManifest, dataDir: string, databaseInDataDir: boolean, freeSpace: FreeSpace = freeBytes): Promise<void> {
  const files = Math.max(0, Number(manifest.files?.bytes) || 0);
  const rows = databaseInDataDir ? manifest.tables.reduce((n, t) => n + Math.max(0, Number(t.bytes) || 0), 0) : 0;
  const free = await freeSpace(dataDir);
  if (free < files + rows) {
    throw new BackupRefused(
      `There is not enough free space in ${dataDir} for it: about ${mb(files + rows)} needed (${databaseInDataDir ? `the tables ${mb(rows)}, ` : ''}the stored files ${mb(files)}), ${mb(free)} free. Free some space and try again; nothing was changed.`,
    );
  }
}

/**
 * Restores a backup into a database (`url`) and DATA_DIR, all or nothing: in ONE transaction the
 * database's old schema is dropped (replace), the migrations up to exactly the backup's are applied,
 * the foreign keys are taken off and user triggers disabled, every table loaded from the archive,
 * every sequence set at or past its column's largest value, the foreign keys put back (PostgreSQL
 * checks every row against them there), the triggers enabled and the migrations up to this CRM's
 * newest applied. The stored files are written beside DATA_DIR/files meanwhile, and swapped in only
 * once the transaction is committed. Whatever fails before (a damaged entry, a full disk, a missing
 * right) rolls back to the database as it was and leaves DATA_DIR/files untouched.
 *
 * Nothing here needs a superuser: the database's owner owns every table it makes in the transaction.
 */
export async function restoreBackup(o: RestoreOptions): Promise<RestoreResult> {
  const log = o.log ?? (() => {});
  const manifest = await readManifest(o.file);
  checkManifest(manifest);
  const filesRoot = path.join(o.dataDir, 'files');
  const toStore = o.storage?.kind === 's3' ? o.storage : undefined;
  const putInStore: string[] = [];
  // Small files' puts under way, and the first that failed.
  const storing = new Set<Promise<void>>();
  const storeFailed: unknown[] = [];
  const hasFiles = !toStore && fs.existsSync(filesRoot) && fs.readdirSync(filesRoot).some((n) => !n.startsWith('.'));
  if (hasFiles && !o.replacedDir) throw new BackupRefused(`${filesRoot} holds files already.`);
  if (!toStore) await checkRestoreSpace(manifest, o.dataDir, o.databaseInDataDir ?? false, o.freeSpace);
  const staging = path.join(o.dataDir, `.files-restoring-${process.pid}-${Date.now()}`);
  const byName = new Map(manifest.tables.map((t) => [t.name, t]));
  const last = readJournal().entries.at(-1)!.tag;

  const db = new pg.Client({ connectionString: o.url, application_name: RESTORE_APP });
  await db.connect();
  let rows = 0;
  let files = 0;
  let bytes = 0;
  const loaded = new Set<string>();
  try {
    await db.query('begin');
    await db.query(`set local datestyle = 'ISO, YMD'; set local intervalstyle = 'postgres'`);
    // No CRM migrating this database meanwhile (migrateDb's lock), and none using it: a running
    // CRM would answer errors while its tables are replaced under it.
    await db.query('select pg_advisory_xact_lock(727274)');
    await refuseWhileConnected(db);
    const existing = (await db.query<{ n: number }>(`select count(*)::int as n from pg_tables where schemaname = 'public'`)).rows[0]!.n;
    if (existing > 0) {
      if (!o.replace) throw new BackupRefused('The database to restore into is not empty.');
      log(`Replacing the ${existing} tables of the database (undone if the restore fails)...`);
      await db.query('drop schema if exists drizzle cascade; drop schema public cascade; create schema public');
    }
    log(`Preparing the database at the backup's migration (${manifest.migration.tag})...`);
    await applyMigrationsInTransaction(db, manifest.migration.tag);
    // Tables the app makes at start rather than in a migration.
    if (manifest.tables.some((t) => t.name === 'demo_seed')) await db.query(DEMO_SEED_DDL);
    const known = await db.query<{ name: string }>(`select relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r'`);
    const knownTables = new Set(known.rows.map((r) => r.name));
    for (const t of manifest.tables) if (!knownTables.has(t.name)) throw new BackupRefused(`The backup has a table ${t.name} that its migration does not make: it is damaged.`);

    // Rows go in table by table in the archive's order: foreign keys off until all are in, and the
    // app's own triggers (search words, totals) not redoing what the backup holds already.
    const fks = await db.query<{ tbl: string; name: string; def: string }>(`
      select c.conrelid::regclass::text as tbl, c.conname as name, pg_get_constraintdef(c.oid) as def
      from pg_constraint c where c.contype = 'f' and c.connamespace = 'public'::regnamespace order by c.conrelid, c.conname`);
    for (const fk of fks.rows) await db.query(`alter table ${fk.tbl} drop constraint ${ident(fk.name)}`);
    const triggered = await db.query<{ tbl: string }>(`
      select distinct t.tgrelid::regclass::text as tbl from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where not t.tgisinternal and c.relnamespace = 'public'::regnamespace`);
    for (const r of triggered.rows) await db.query(`alter table ${r.tbl} disable trigger user`);
    // Rows the migrations themselves made (lists of values) are in the backup as they were then.
    await db.query(`truncate ${[...knownTables].map(ident).join(', ')} restart identity`);
    log(`Loading ${manifest.tables.length} tables...`);

    for await (const { entry, what } of backupEntries(o.file, manifest, byName)) {
      if (what.kind === 'table') {
        const t = what.table;
        const into = db.query(copyFrom(`copy ${ident(t.name)} (${t.columns.map(ident).join(', ')}) from stdin`));
        try {
          await pipeline(entry.body, into);
        } catch (e) {
          if ((e as { code?: string }).code?.match(/^(22|23)/)) throw new BackupRefused(`The table ${t.name} could not be loaded (${(e as Error).message}): the backup is damaged.`);
          throw e;
        }
        if (into.rowCount !== t.rows) throw new BackupRefused(`The table ${t.name} loaded ${into.rowCount} rows where the backup says ${t.rows}: the backup is damaged.`);
        rows += into.rowCount;
        loaded.add(t.name);
        continue;
      }
      if (files === 0) {
        refuseMissingTables(manifest, loaded);
        log(`Loaded ${rows} rows; putting the files back...`);
      }
      if (toStore) {
        const name = path.basename(what.rel);
        // A put refused already: nothing more goes in (the undo below removes what did).
        if (storeFailed.length) throw storeFailed[0];
        // A file the store holds already with its size (a restore into the store the backup was made
        // from: names are random and files never change) is left as it is, and the undo never
        // removes it; only the files this restore added are taken out again if it fails.
        const putNew = async (body: () => Readable, drain: () => Promise<void>) => {
          const there = await toStore.stat(name);
          if (storeFailed.length) return drain();
          if (there && there.size === entry.size) return drain();
          if (!there) putInStore.push(name);
          await toStore.put(name, body());
        };
        if (entry.size <= SMALL_FILE) {
          // Read whole here (the archive goes on to its next entry), stored beside a few others.
          const chunks: Buffer[] = [];
          for await (const c of entry.body as AsyncIterable<Buffer>) chunks.push(c);
          const put: Promise<void> = putNew(() => Readable.from(chunks), async () => {})
            .catch((e: unknown) => {
              storeFailed.push(e);
            })
            .finally(() => storing.delete(put));
          storing.add(put);
          if (storing.size >= FETCH_AHEAD) await Promise.race(storing);
          if (storeFailed.length) throw storeFailed[0];
        } else {
          await putNew(
            () => entry.body as Readable,
            async () => {
              for await (const _ of entry.body as AsyncIterable<Buffer>) void _;
            },
          );
        }
      } else {
        const target = path.join(staging, what.rel);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        await pipeline(entry.body as Readable, fs.createWriteStream(target, { mode: 0o600 }));
        if (entry.mtime.getTime() > 0) fs.utimesSync(target, entry.mtime, entry.mtime);
      }
      files++;
      bytes += entry.size;
    }
    await Promise.all(storing);
    if (storeFailed.length) throw storeFailed[0];
    refuseMissingTables(manifest, loaded);
    if (files !== manifest.files.count) log(`Note: the backup listed ${manifest.files.count} files and holds ${files} (files deleted while it was made are left out).`);

    await setSequences(db, manifest);
    for (const fk of fks.rows) {
      try {
        await db.query(`alter table ${fk.tbl} add constraint ${ident(fk.name)} ${fk.def}`);
      } catch (e) {
        throw new BackupRefused(`The backup's rows do not hold together (${(e as Error).message}): it is damaged.`);
      }
    }
    for (const r of triggered.rows) await db.query(`alter table ${r.tbl} enable trigger user`);
    if (last !== manifest.migration.tag) {
      log(`Migrating the restored database from ${manifest.migration.tag} up to ${last}...`);
      await applyMigrationsInTransaction(db);
    }
    // Anyone who connected meanwhile (waiting on the tables' locks, or answered errors) is
    // refused too: the database stays as it was rather than change under them.
    await refuseWhileConnected(db, 0);
    await db.query('commit');
  } catch (e) {
    await db.query('rollback').catch(() => {});
    await db.end().catch(() => {});
    fs.rmSync(staging, { recursive: true, force: true });
    await Promise.all(storing);
    for (const name of putInStore) await toStore!.delete(name).catch(() => {});
    if ((e as NodeJS.ErrnoException).code === 'Z_DATA_ERROR' || (e as NodeJS.ErrnoException).code === 'Z_BUF_ERROR') throw new BackupRefused(`The backup file is damaged (${(e as Error).message}).`);
    throw e;
  }
  try {
    // Committed: the restored files take the place of the old ones (moved aside, never deleted).
    // Restored into a store, they are there already.
    if (!toStore) {
      if (hasFiles) {
        const aside = o.replacedDir ?? path.join(o.dataDir, `replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`);
        fs.mkdirSync(aside, { recursive: true });
        fs.renameSync(filesRoot, path.join(aside, 'files'));
      } else fs.rmSync(filesRoot, { recursive: true, force: true }); // at most what an upload left half-written
      if (fs.existsSync(staging)) fs.renameSync(staging, filesRoot);
      else fs.mkdirSync(filesRoot, { recursive: true });
    }
    await db.query('analyze').catch(() => {});
  } finally {
    await db.end();
  }
  return { manifest, tables: loaded.size, rows, files, bytes, migratedTo: last };
}

/** The sequences as the backup had them, and never behind their column. */
async function setSequences(db: pg.Client, manifest: BackupManifest) {
  for (const s of manifest.sequences) {
    if (s.value !== null) await db.query('select setval($1::regclass, $2, true)', [ident(s.name), s.value]);
  }
  // A sequence never behind its column: the next row's id comes after every restored one.
  const owned = await db.query<{ seq: string; tbl: string; col: string }>(`
    select s.relname as seq, t.relname as tbl, a.attname as col
    from pg_class s join pg_namespace n on n.oid = s.relnamespace
    join pg_depend d on d.objid = s.oid and d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')
    join pg_class t on t.oid = d.refobjid
    join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
    where s.relkind = 'S' and n.nspname = 'public'`);
  for (const r of owned.rows) {
    await db.query(
      `select setval($1::regclass, greatest(m, coalesce((select last_value from ${ident(r.seq)} where is_called), 0))) from (select max(${ident(r.col)}) as m from ${ident(r.tbl)}) x where m is not null`,
      [ident(r.seq)],
    );
  }
}
