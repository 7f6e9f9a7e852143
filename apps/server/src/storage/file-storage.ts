import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';

/**
 * Where uploaded files live. The default keeps them on local disk under DATA_DIR/files; an
 * S3-compatible store can implement the same three calls later.
 */
export interface FileStorage {
  /** Stores the content under `name`. A local path is moved in when the store is on the same disk. */
  put(name: string, source: Readable | { path: string }): Promise<void>;
  /** A stream of the content; undefined when the store has no such file. */
  get(name: string): Promise<Readable | undefined>;
  /** Removes the content; no error when it is already gone. */
  delete(name: string): Promise<void>;
  /**
   * Stores a copy of the local file at `source` under `name`, leaving `source` in place (the demo's
   * shared pictures). A store on the same disk may share the content (a hard link).
   */
  putCopy(name: string, source: string): Promise<void>;
}

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Files on local disk, sharded by the first two characters of the (random) name. */
export class LocalDiskStorage implements FileStorage {
  constructor(public readonly root: string) {}

  private pathOf(name: string): string {
    if (!SAFE_NAME.test(name) || name.includes('..')) throw new Error(`unsafe stored file name: ${name}`);
    return path.join(this.root, name.slice(0, 2).toLowerCase(), name);
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

  async get(name: string): Promise<Readable | undefined> {
    const p = this.pathOf(name);
    try {
      const handle = await fs.promises.open(p, 'r');
      return handle.createReadStream();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }

  async delete(name: string): Promise<void> {
    await fs.promises.rm(this.pathOf(name), { force: true });
  }
}

const stores = new Map<string, LocalDiskStorage>();

/** The store of a data directory (DATA_DIR/files). */
export function getFileStorage(dataDir: string): FileStorage {
  const root = path.join(dataDir, 'files');
  let s = stores.get(root);
  if (!s) {
    s = new LocalDiskStorage(root);
    stores.set(root, s);
  }
  return s;
}

/** A scratch folder on the same disk as the store, for uploads being checked. */
export function getIncomingDir(dataDir: string): string {
  return path.join(dataDir, 'files', '.incoming');
}
