// The benchmark's load generator (a worker thread, so that its own work does not run on the
// app's event loop): `concurrency` clients on keep-alive connections to 127.0.0.1, each sending
// the next request of the list as soon as its previous answer has been read in full.
// workerData: { port, token, requests: [{ method, path, body? }], concurrency, warmupMs, durationMs } or
// { ..., count } for a fixed number of requests. Posts { latencies (ms), statuses, elapsedMs, errors }.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { port, token, requests, concurrency, warmupMs = 0, durationMs, count } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

function send(req) {
  return new Promise((resolve) => {
    const body = req.body === undefined ? undefined : Buffer.from(JSON.stringify(req.body));
    const started = performance.now();
    const r = http.request(
      {
        host: '127.0.0.1',
        port,
        method: req.method,
        path: req.path,
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          'accept-language': 'el',
          ...(body ? { 'content-type': 'application/json', 'content-length': body.length } : {}),
        },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, bytes }));
        res.on('error', (e) => resolve({ status: 0, ms: performance.now() - started, bytes, error: String(e) }));
      },
    );
    r.on('error', (e) => resolve({ status: 0, ms: performance.now() - started, bytes: 0, error: String(e) }));
    if (body) r.write(body);
    r.end();
  });
}

async function run() {
  let next = 0;
  const take = () => requests[next++ % requests.length];
  const latencies = [];
  const statuses = {};
  const errors = [];
  let bytes = 0;

  if (warmupMs > 0) {
    const until = performance.now() + warmupMs;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) await send(take());
    }));
  }

  const started = performance.now();
  const until = durationMs ? started + durationMs : Infinity;
  let left = count ?? Infinity;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < until && left-- > 0) {
      const res = await send(take());
      latencies.push(res.ms);
      bytes += res.bytes;
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (res.error && errors.length < 5) errors.push(res.error);
    }
  }));
  const elapsedMs = performance.now() - started;
  agent.destroy();
  parentPort.postMessage({ latencies, statuses, elapsedMs, errors, bytes });
}

run().catch((e) => parentPort.postMessage({ latencies: [], statuses: {}, elapsedMs: 0, errors: [String(e)], bytes: 0 }));
