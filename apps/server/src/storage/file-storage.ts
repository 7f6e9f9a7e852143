import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { S3Settings } from '../config.ts';

/**
 * Where stored files live (uploads, photos and their sizes, receipts, documents, signed copies):
 * local disk under DATA_DIR/files (the default) or an S3-compatible store (storage/s3-storage.ts,
 * decision 062). Every module reaches it through getFileStorage(config.dataDir); the app picks the
 * store once at start (configureFileStorage). Stored names are random and never rewritten: a name
 * always means the same bytes, which is what lets several instances share one store without locks.
 */
export { SAFE_NAME, checkStoredName, s3Where, type BackupArea, type FileStorage } from './stored-names.ts';
import { SAFE_NAME, checkStoredName, s3Where, type FileStorage } from './stored-names.ts';

/** The folder of a stored name on local disk (and in backups): its first two characters, lower case. */
export const shardOf = (name: string) => name.slice(0, 2).toLowerCase();

/** Files on local disk, sharded by the first two characters of the (random) name. */
export class LocalDiskStorage implements FileStorage {
  readonly kind = 'local' as const;
  constructor(public readonly root: string) {}

  get where() {
    return this.root;
  }

  private pathOf(name: string): string {
    return path.join(this.root, shardOf(checkStoredName(name)), name);
  }

  async put(name: string, source: Readable | { path: string }): Promise<void> {
    const target = this.pathOf(name);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    if ('path' in source && typeof source.path === 'string' && !('pipe' in source)) {
      try {
        await fs.promises.rename(source.path, target);
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
        await fs.promises.copyFile(source.path, target);
        await fs.promises.rm(source.path, { force: true });
        return;
      }
    }
    const partial = `${target}.part`;
    try {
      await pipeline(source as Readable, fs.createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
      await fs.promises.rename(partial, target);
    } catch (e) {
      await fs.promises.rm(partial, { force: true });
      throw e;
    }
  }

  async putCopy(name: string, source: string): Promise<void> {
    const target = this.pathOf(name);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    try {
      await fs.promises.link(source, target);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return;
      await fs.promises.copyFile(source, target);
    }
  }

  async get(name: string, signal?: AbortSignal): Promise<Readable | undefined> {
    const p = this.pathOf(name);
    try {
      const handle = await fs.promises.open(p, 'r');
      return handle.createReadStream({ signal });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }

  async stat(name: string): Promise<{ size: number } | undefined> {
    try {
      const st = await fs.promises.stat(this.pathOf(name));
      return st.isFile() ? { size: st.size } : undefined;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }

  /** The file, and the part a writer killed mid-put left of it (decision 104). */
  async delete(name: string): Promise<void> {
    const p = this.pathOf(name);
    await fs.promises.rm(p, { force: true });
    await fs.promises.rm(`${p}.part`, { force: true });
  }

  async *list(): AsyncIterable<{ name: string; size: number }> {
    let shards: fs.Dirent[];
    try {
      shards = await fs.promises.readdir(this.root, { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    for (const shard of shards.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      // Uploads still being checked (.incoming) and anything hidden are not stored files.
      if (!shard.isDirectory() || shard.name.startsWith('.')) continue;
      const dir = path.join(this.root, shard.name);
      const names = (await fs.promises.readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
      for (const e of names) {
        // Only what get() finds: our names, in their own shard.
        if (!e.isFile() || e.name.endsWith('.part') || !SAFE_NAME.test(e.name) || shardOf(e.name) !== shard.name) continue;
        try {
          yield { name: e.name, size: (await fs.promises.stat(path.join(dir, e.name))).size };
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err; // deleted meanwhile
        }
      }
    }
  }
}

const stores = new Map<string, FileStorage>();

/**
 * The store of a data directory: the one configureFileStorage chose for it, else local disk under
 * DATA_DIR/files.
 */
export function getFileStorage(dataDir: string): FileStorage {
  const root = path.join(dataDir, 'files');
  let s = stores.get(root);
  if (!s) {
    s = new LocalDiskStorage(root);
    stores.set(root, s);
  }
  return s;
}

/** Makes the store the settings name: S3 when `s3` is given, else local disk under DATA_DIR/files. */
export async function createFileStorage(dataDir: string, s3: S3Settings | undefined): Promise<FileStorage> {
  if (!s3) return new LocalDiskStorage(path.join(dataDir, 'files'));
  const { S3Storage } = await import('./s3-storage.ts');
  return new S3Storage(s3);
}

/** Chooses the store of a data directory for this process (buildApp, from the config's STORAGE). */
export async function configureFileStorage(dataDir: string, s3: S3Settings | undefined): Promise<FileStorage> {
  const root = path.join(dataDir, 'files');
  const kept = stores.get(root);
  if (kept && (s3 ? kept.kind === 's3' && kept.where === s3Where(s3) : kept.kind === 'local')) return kept;
  const s = await createFileStorage(dataDir, s3);
  stores.set(root, s);
  return s;
}

/** Where browsers read presigned addresses from (the CSP's img-src): the endpoint's origin, or Amazon's own. */
export function s3Origin(s3: Pick<S3Settings, 'endpoint' | 'bucket' | 'region' | 'forcePathStyle'>): string {
  if (s3.endpoint) {
    const u = new URL(s3.endpoint);
    return s3.forcePathStyle ? u.origin : `${u.protocol}//${s3.bucket}.${u.host}`;
  }
  return s3.forcePathStyle ? `https://s3.${s3.region}.amazonaws.com` : `https://${s3.bucket}.s3.${s3.region}.amazonaws.com`;
}



/**
 * A scratch folder for uploads being checked (type, size, pictures' copies) before they are stored.
 * Always on this machine's disk, whatever the store: the upload is in the store only once checked.
 */
export function getIncomingDir(dataDir: string): string {
  return path.join(dataDir, 'files', '.incoming');
}
