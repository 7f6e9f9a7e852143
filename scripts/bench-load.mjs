// The benchmark's load generator (a worker thread, so that its own work does not run on the
// app's event loop): `concurrency` clients on keep-alive connections to 127.0.0.1, each sending
// the next request of the list as soon as its previous answer has been read in full.
// workerData: { port, token, requests: [{ method, path, body?, headers? }], concurrency, warmupMs, durationMs } or
// { ..., count } for a fixed number of requests. Posts { latencies (ms), statuses, elapsedMs, errors, bytes }.
//
// Each request's bytes are written once, before the run, and each connection is a plain socket that
// reads only the status line and the body's length (Content-Length or chunks): node's http client
// cost 1-2 ms of CPU a request under load, as much as some of the endpoints it measured (the bench's
// "other" CPU, which issue 50 counts in every request's cost).
import net from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

const { port, token, requests, concurrency, warmupMs = 0, durationMs, count } = workerData;

const wire = requests.map((req) => {
  const body = req.body === undefined ? undefined : Buffer.from(JSON.stringify(req.body));
  const head =
    `${req.method} ${req.path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\nAuthorization: Bearer ${token}\r\n` +
    'Accept: application/json\r\nAccept-Language: el\r\n' +
    Object.entries(req.headers ?? {}).map(([k, v]) => `${k}: ${v}\r\n`).join('') +
    (body ? `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n` : '') +
    '\r\n';
  return body ? Buffer.concat([Buffer.from(head), body]) : Buffer.from(head);
});

const CRLFCRLF = Buffer.from('\r\n\r\n');

/** One keep-alive connection that sends a request and resolves with its status and size once the answer has been read. */
function connection() {
  let socket = null;
  let buf = Buffer.alloc(0);
  let pending = null; // { resolve, started, status, bodyLeft, chunked, bytes, headerDone }

  const fail = (error) => {
    const p = pending;
    pending = null;
    socket?.destroy();
    socket = null;
    buf = Buffer.alloc(0);
    p?.resolve({ status: 0, ms: performance.now() - p.started, bytes: 0, error: String(error) });
  };

  const finish = () => {
    const p = pending;
    pending = null;
    p.resolve({ status: p.status, ms: performance.now() - p.started, bytes: p.bytes });
  };

  /** Reads what has come: the head, then the body by its length or its chunks. */
  const parse = () => {
    const p = pending;
    if (!p) return;
    if (!p.headerDone) {
      const end = buf.indexOf(CRLFCRLF);
      if (end < 0) return;
      const head = buf.subarray(0, end).toString('latin1');
      buf = buf.subarray(end + 4);
      p.headerDone = true;
      p.status = Number(head.slice(9, 12));
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      p.chunked = /\r\ntransfer-encoding:\s*chunked/i.test(head);
      p.bodyLeft = length ? Number(length[1]) : 0;
      if (/\r\nconnection:\s*close/i.test(head)) p.close = true;
    }
    if (!p.chunked) {
      const take = Math.min(p.bodyLeft, buf.length);
      p.bytes += take;
      p.bodyLeft -= take;
      buf = buf.subarray(take);
      if (p.bodyLeft === 0) {
        if (p.close) {
          socket?.destroy();
          socket = null;
        }
        finish();
      }
      return;
    }
    for (;;) {
      if (p.bodyLeft > 0) {
        const take = Math.min(p.bodyLeft, buf.length);
        p.bytes += take;
        p.bodyLeft -= take;
        buf = buf.subarray(take);
        if (p.bodyLeft > 0) return;
      }
      const line = buf.indexOf('\r\n');
      if (line < 0) return;
      const size = parseInt(buf.subarray(0, line).toString('latin1'), 16);
      if (size === 0) {
        // The last chunk, then the (empty) trailer.
        const end = buf.indexOf(CRLFCRLF);
        if (end < 0) return;
        buf = buf.subarray(end + 4);
        finish();
        return;
      }
      // The chunk's data and its closing CRLF (counted out of the bytes below).
      buf = buf.subarray(line + 2);
      p.bodyLeft = size + 2;
      p.bytes -= 2;
    }
  };

  const open = () =>
    new Promise((resolve, reject) => {
      const s = net.connect({ host: '127.0.0.1', port, noDelay: true }, () => resolve(s));
      s.once('error', reject);
    }).then((s) => {
      s.on('data', (d) => {
        buf = buf.length ? Buffer.concat([buf, d]) : d;
        parse();
      });
      s.on('error', (e) => fail(e));
      s.on('close', () => {
        if (socket === s) socket = null;
        if (pending) fail(new Error('connection closed'));
      });
      socket = s;
      return s;
    });

  const send = async function send(i) {
    const started = performance.now();
    try {
      const s = socket ?? (await open());
      return await new Promise((resolve) => {
        pending = { resolve, started, status: 0, bodyLeft: 0, chunked: false, bytes: 0, headerDone: false, close: false };
        s.write(wire[i]);
      });
    } catch (e) {
      return { status: 0, ms: performance.now() - started, bytes: 0, error: String(e) };
    }
  };
  send.close = () => socket?.destroy();
  return send;
}

async function run() {
  let next = 0;
  const take = () => next++ % wire.length;
  const latencies = [];
  const statuses = {};
  const errors = [];
  let bytes = 0;
  const clients = Array.from({ length: concurrency }, () => connection());

  if (warmupMs > 0) {
    const until = performance.now() + warmupMs;
    await Promise.all(
      clients.map(async (send) => {
        while (performance.now() < until) await send(take());
      }),
    );
  }

  const started = performance.now();
  const until = durationMs ? started + durationMs : Infinity;
  let left = count ?? Infinity;
  await Promise.all(
    clients.map(async (send) => {
      while (performance.now() < until && left-- > 0) {
        const res = await send(take());
        latencies.push(res.ms);
        bytes += res.bytes;
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.error && errors.length < 5) errors.push(res.error);
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  for (const send of clients) send.close();
  parentPort.postMessage({ latencies, statuses, elapsedMs, errors, bytes });
}

run().catch((e) => parentPort.postMessage({ latencies: [], statuses: {}, elapsedMs: 0, errors: [String(e)], bytes: 0 }));
