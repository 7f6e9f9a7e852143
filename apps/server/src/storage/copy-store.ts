import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FileStorage } from './file-storage.ts';

async function digestOf(stream: Readable): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest('hex'), size };
}

/** The SHA-256 and size of a stored file as the store gives it back; undefined when it has none. */
export async function storedDigest(store: FileStorage, name: string): Promise<{ sha256: string; size: number } | undefined> {
  const body = await store.get(name);
  return body ? digestOf(body) : undefined;
}

export type CopyReport = {
  /** Copied now, and read back equal. */
  copied: number;
  /** In the target already with the same size and checksum (a run again after an interruption). */
  alreadyThere: number;
  /** Could not be copied, or read back different: name and why. */
  failed: { name: string; reason: string }[];
  bytes: number;
};

/**
 * Copies every stored file of `from` into `to` (local disk into S3, or back), and proves each copy:
 * the target's bytes are read back and their size and SHA-256 compared with the source's. A file the
 * target holds already with the same checksum is left as it is, so the command can be run again
 * after an interruption, or to check a copy made earlier; one that differs is copied again. The
 * source is never changed (decision 062).
 */
export async function copyStore(from: FileStorage, to: FileStorage, opts: { log?: (line: string) => void; signal?: AbortSignal; concurrency?: number } = {}): Promise<CopyReport> {
  const log = opts.log ?? (() => {});
  const report: CopyReport = { copied: 0, alreadyThere: 0, failed: [], bytes: 0 };
  let seen = 0;
  const one = async (name: string) => {
    try {
      const source = await storedDigest(from, name);
      if (!source) return; // deleted since the listing
      const there = await to.stat(name);
      if (there && there.size === source.size) {
        const target = await storedDigest(to, name);
        if (target?.sha256 === source.sha256) {
          report.alreadyThere++;
          return;
        }
      }
      const body = await from.get(name);
      if (!body) return;
      await to.put(name, body);
      const copied = await storedDigest(to, name);
      if (!copied || copied.size !== source.size || copied.sha256 !== source.sha256) {
        report.failed.push({ name, reason: `read back ${copied ? `${copied.size} bytes, SHA-256 ${copied.sha256}` : 'nothing'}; the source has ${source.size} bytes, SHA-256 ${source.sha256}` });
        return;
      }
      report.copied++;
      report.bytes += source.size;
    } catch (e) {
      report.failed.push({ name, reason: e instanceof Error ? e.message : String(e) });
    }
  };
  // A few files at a time: a store's round trips, not the bytes, are what takes the time.
  const inFlight = new Set<Promise<void>>();
  for await (const f of from.list()) {
    opts.signal?.throwIfAborted();
    seen++;
    const p = one(f.name).finally(() => inFlight.delete(p));
    inFlight.add(p);
    if (inFlight.size >= (opts.concurrency ?? 8)) await Promise.race(inFlight);
    if (seen % 500 === 0) log(`  ${seen} files looked at: ${report.copied} copied, ${report.alreadyThere} there already, ${report.failed.length} failed`);
  }
  await Promise.all(inFlight);
  return report;
}
