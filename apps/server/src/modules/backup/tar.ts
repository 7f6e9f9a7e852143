import { Readable, type Writable } from 'node:stream';

/**
 * The little of the tar format (POSIX ustar) a backup needs: regular files and folders, names up
 * to 255 bytes (a 155-byte prefix and a 100-byte name), written and read as streams so that no
 * table or photo is ever held whole in memory. `tar tzf crm-....tar.gz` lists what a backup holds.
 */
const BLOCK = 512;
/** The largest pax (extended) header read: a long path and a few times take a few hundred bytes. */
export const MAX_PAX_HEADER = 64 * 1024;

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, '0') + '\0';
}

/** Splits a path into ustar's prefix and name (at a slash), or throws when it cannot fit. */
function splitName(p: string): { prefix: string; name: string } {
  if (Buffer.byteLength(p) <= 100) return { prefix: '', name: p };
  for (let i = p.lastIndexOf('/'); i > 0; i = p.lastIndexOf('/', i - 1)) {
    const prefix = p.slice(0, i);
    const name = p.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { prefix, name };
  }
  throw new Error(`a path too long for the archive: ${p}`);
}

export function tarHeader(entry: { path: string; size: number; mtime: Date; type: 'file' | 'dir'; mode?: number }): Buffer {
  const h = Buffer.alloc(BLOCK, 0);
  const { prefix, name } = splitName(entry.type === 'dir' && !entry.path.endsWith('/') ? `${entry.path}/` : entry.path);
  h.write(name, 0, 100, 'utf8');
  h.write(octal(entry.mode ?? (entry.type === 'dir' ? 0o755 : 0o644), 8), 100, 8, 'ascii');
  h.write(octal(0, 8), 108, 8, 'ascii'); // uid
  h.write(octal(0, 8), 116, 8, 'ascii'); // gid
  h.write(octal(entry.type === 'dir' ? 0 : entry.size, 12), 124, 12, 'ascii');
  h.write(octal(Math.floor(entry.mtime.getTime() / 1000), 12), 136, 12, 'ascii');
  h.write('        ', 148, 8, 'ascii'); // the checksum counts as spaces while it is summed
  h.write(entry.type === 'dir' ? '5' : '0', 156, 1, 'ascii');
  h.write('ustar\0', 257, 6, 'ascii');
  h.write('00', 263, 2, 'ascii');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  return h;
}

async function write(out: Writable, chunk: Buffer) {
  if (out.destroyed) throw new Error('the archive could not be written');
  if (out.write(chunk)) return;
  await new Promise<void>((resolve, reject) => {
    const done = () => {
      out.off('close', gone);
      resolve();
    };
    const gone = () => {
      out.off('drain', done);
      reject(new Error('the archive could not be written'));
    };
    out.once('drain', done);
    out.once('close', gone);
  });
}

/** Writes one entry: its header, its content (exactly `size` bytes, else it throws), the padding. */
export async function writeTarEntry(out: Writable, entry: { path: string; size: number; mtime: Date }, content: Readable | Buffer) {
  await write(out, tarHeader({ ...entry, type: 'file' }));
  let written = 0;
  if (Buffer.isBuffer(content)) {
    await write(out, content);
    written = content.length;
  } else {
    for await (const chunk of content as AsyncIterable<Buffer>) {
      written += chunk.length;
      if (written > entry.size) break;
      await write(out, chunk);
    }
  }
  if (written !== entry.size) throw new Error(`${entry.path} changed while it was archived (${written} bytes instead of ${entry.size})`);
  const pad = (BLOCK - (entry.size % BLOCK)) % BLOCK;
  if (pad) await write(out, Buffer.alloc(pad, 0));
}

/** The archive's end: two empty blocks. */
export async function endTar(out: Writable) {
  await write(out, Buffer.alloc(BLOCK * 2, 0));
}

/** Reads exactly the bytes asked for from a stream of chunks. */
class ByteReader {
  private rest: Buffer = Buffer.alloc(0);
  private readonly it: AsyncIterator<Buffer>;
  constructor(input: Readable) {
    this.it = (input as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  }

  /** Up to `max` bytes (at least one), or null at the end of the stream. */
  async some(max: number): Promise<Buffer | null> {
    if (!this.rest.length) {
      const next = await this.it.next();
      if (next.done) return null;
      this.rest = next.value;
    }
    const out = this.rest.subarray(0, max);
    this.rest = this.rest.subarray(out.length);
    return out;
  }

  async exactly(n: number): Promise<Buffer | null> {
    const parts: Buffer[] = [];
    let got = 0;
    while (got < n) {
      const b = await this.some(n - got);
      if (!b) return got === 0 ? null : Buffer.concat(parts);
      parts.push(b);
      got += b.length;
    }
    return Buffer.concat(parts);
  }

  async skip(n: number) {
    while (n > 0) {
      const b = await this.some(n);
      if (!b) return;
      n -= b.length;
    }
  }
}

/** An archive that is cut short, damaged, or not a tar of the kind we write. */
export class TarDamaged extends Error {}

export type TarEntry = { path: string; size: number; type: 'file' | 'dir' | 'other'; mtime: Date; body: Readable };

function text(h: Buffer, start: number, len: number) {
  const raw = h.subarray(start, start + len);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? len : end).toString('utf8');
}

/**
 * The entries of a tar stream, one after the other; each entry's body must be read (or left: the
 * rest is skipped) before the next is asked for. Throws on a damaged or cut archive.
 */
export async function* readTar(input: Readable): AsyncGenerator<TarEntry> {
  const r = new ByteReader(input);
  let paxPath: string | undefined;
  for (;;) {
    const h = await r.exactly(BLOCK);
    if (!h) throw new TarDamaged('the archive is cut short (no end marker): the file is incomplete');
    if (h.length < BLOCK) throw new TarDamaged('the archive is cut short: the file is incomplete');
    if (h.every((b) => b === 0)) return;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
    if (parseInt(text(h, 148, 8).trim(), 8) !== sum) throw new TarDamaged('the archive is damaged (a header checksum does not match)');
    const size = parseInt(text(h, 124, 12).trim() || '0', 8);
    const flag = String.fromCharCode(h[156]!);
    const prefix = text(h, 345, 155);
    const name = text(h, 0, 100);
    const pad = (BLOCK - (size % BLOCK)) % BLOCK;
    if (!Number.isSafeInteger(size) || size < 0) throw new TarDamaged('the archive is damaged (an entry\'s size cannot be read)');
    if (flag === 'x') {
      // A pax header (another tar's long name): its path is the next entry's. It is read whole, so
      // one larger than any real one (a crafted archive claiming gigabytes) is refused unread.
      if (size > MAX_PAX_HEADER) throw new TarDamaged(`the archive is damaged or not ours (an extended header of ${size} bytes, where at most ${MAX_PAX_HEADER} are expected)`);
      const body = (await r.exactly(size)) ?? Buffer.alloc(0);
      await r.skip(pad);
      const m = /\d+ path=([^\n]*)\n/.exec(body.toString('utf8'));
      paxPath = m?.[1];
      continue;
    }
    const entryPath = paxPath ?? (prefix ? `${prefix}/${name}` : name);
    paxPath = undefined;
    let left = size;
    const body = Readable.from(
      (async function* () {
        while (left > 0) {
          const b = await r.some(Math.min(left, 256 * 1024));
          if (!b) throw new TarDamaged('the archive is cut short: the file is incomplete');
          left -= b.length;
          yield b;
        }
      })(),
      { objectMode: false },
    );
    const type = flag === '0' || flag === '\0' ? 'file' : flag === '5' ? 'dir' : 'other';
    yield { path: entryPath.replace(/\/$/, ''), size, type, mtime: new Date(parseInt(text(h, 136, 12).trim() || '0', 8) * 1000), body };
    // Whatever the reader left of the body, then the padding.
    body.destroy();
    await r.skip(left + pad);
  }
}
