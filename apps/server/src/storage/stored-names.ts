import type { Readable } from 'node:stream';
import type { S3Settings } from '../config.ts';

/** What every store does (file-storage.ts picks one: local disk or an S3-compatible store). */
export interface FileStorage {
  readonly kind: 'local' | 's3';
  /** Where the files are, for logs and messages (a folder, or s3://bucket/prefix). */
  readonly where: string;
  /** Stores the content under `name`. A local path is moved in when the store is on the same disk. */
  put(name: string, source: Readable | { path: string }): Promise<void>;
  /** A stream of the content; undefined when the store has no such file. */
  /** The file's bytes as a stream; undefined when there is none. `signal` gives the request up (a hung store). */
  get(name: string, signal?: AbortSignal): Promise<Readable | undefined>;
  /** The size of a stored file; undefined when there is none. */
  stat(name: string): Promise<{ size: number } | undefined>;
  /** Removes the content; no error when it is already gone. */
  delete(name: string): Promise<void>;
  /**
   * Stores a copy of the local file at `source` under `name`, leaving `source` in place (the demo's
   * shared pictures). A store on the same disk may share the content (a hard link).
   */
  putCopy(name: string, source: string): Promise<void>;
  /** Every stored file, in name order within each shard (the backup's and the copy command's walk). */
  list(): AsyncIterable<{ name: string; size: number }>;
  /**
   * A short-lived address a browser can read the file from directly, with the headers given, or
   * undefined when the store does not hand such addresses out (local disk, or turned off).
   */
  presign?(name: string, headers: { contentType: string; contentDisposition: string; cacheControl: string }): Promise<string | undefined>;
  /**
   * Where backups are kept in this store, for every instance to list, download and prune (an S3
   * store's backups/ prefix); undefined: in the backups folder on this machine (local disk).
   */
  backups?(): BackupArea;
}

/** The backups kept in a store (decision 093): whole archives under their names (crm-*.tar.gz). */
export interface BackupArea {
  /** Where they are, for the Jobs page and messages (s3://bucket/prefix/backups/). */
  readonly where: string;
  /** Every archive kept there: its name, size and when it was written. */
  list(): Promise<{ name: string; size: number; at: Date }[]>;
  /** Whether an archive of that name is there. */
  has(name: string): Promise<boolean>;
  /** Writes an archive as it is made (in parts); it is there, whole, only once this resolves. */
  put(name: string, body: Readable): Promise<void>;
  /** A stream of an archive and its size; undefined when there is none. */
  get(name: string): Promise<{ body: Readable; size: number } | undefined>;
  /** Removes an archive; no error when it is already gone. */
  delete(name: string): Promise<void>;
}

/** A stored name: random, ours, never a path. */
export const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Refuses a name that is not one of ours (a path, "..", a hidden file). */
export function checkStoredName(name: string): string {
  if (!SAFE_NAME.test(name) || name.includes('..')) throw new Error(`unsafe stored file name: ${name}`);
  return name;
}


/** Where an S3 store's files are, as logs and messages name it. */
export const s3Where = (s3: Pick<S3Settings, 'bucket' | 'prefix'>) => `s3://${s3.bucket}/${s3.prefix}`;
