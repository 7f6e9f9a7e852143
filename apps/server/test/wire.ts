import http from 'node:http';

/** What came back for a body sent over a real connection, and how much of the body the server took. */
export type WireAnswer = {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
  /** Bytes of the body written when the answer had arrived. */
  sent: number;
  /** Bytes of the body the server let us write in all: it went on reading after its answer until it closed the connection. */
  taken: number;
  /** The server closed the connection before the whole body was sent. */
  closed: boolean;
};

/**
 * Sends `total` bytes of body (the `head` first, then filler, then the `tail`) to a listening server
 * over a real connection, writing only as fast as the server reads (backpressure), as a client such
 * as curl does: it goes on sending after an early answer, until the body is sent or the server closes
 * the connection. `sent` is how much the server had read when it answered, `taken` how much it read
 * in all: a server that refuses early and closes takes little; one that reads everything first, or
 * drains the rest to keep the connection, takes it all. Without `contentLength` the body goes chunked.
 */
export function sendBody(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; total: number; head?: Buffer; tail?: Buffer; contentLength?: boolean },
): Promise<WireAnswer> {
  const head = opts.head ?? Buffer.alloc(0);
  const tail = opts.tail ?? Buffer.alloc(0);
  const filler = Buffer.alloc(256 * 1024, 0x61);
  return new Promise((resolve) => {
    let written = 0;
    let answer: Omit<WireAnswer, 'taken' | 'closed'> | undefined;
    let ended = false;
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.contentLength !== false) headers['content-length'] = String(opts.total);
    const req = http.request(url, { method: opts.method ?? 'POST', headers: { connection: 'keep-alive', ...headers }, agent: false });
    let settled = false;
    const settle = (closed: boolean) => {
      if (settled || !answer) return;
      if (!closed && !ended) return;
      settled = true;
      resolve({ ...answer, taken: written, closed });
      req.destroy();
    };
    req.on('response', (res) => {
      const sent = written;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      const done = () => {
        answer = { status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), headers: res.headers, sent };
        settle(false);
      };
      res.on('end', done);
      res.on('error', done);
    });
    // A connection the server closes while the body is still being written: what was taken by then.
    req.on('error', () => undefined);
    req.on('socket', (socket) => socket.on('close', () => setImmediate(() => settle(true))));
    const write = () => {
      while (written < opts.total && !req.destroyed) {
        let chunk: Buffer;
        if (written < head.length) chunk = head.subarray(written);
        else if (written >= opts.total - tail.length) chunk = tail.subarray(written - (opts.total - tail.length));
        else chunk = filler.subarray(0, Math.min(filler.length, opts.total - tail.length - written));
        written += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', write);
          return;
        }
      }
      if (written >= opts.total && !req.destroyed) {
        req.end(() => {
          ended = true;
          settle(false);
        });
      }
    };
    write();
  });
}
