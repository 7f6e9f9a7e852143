// The worker that draws a screen's first paint with the web app's own components (decision 054).
// The app reads `window`, `document`, `localStorage` and `location`: they are given here, in this
// thread only, so nothing of the browser's leaks into the server's own thread. One screen at a time.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const memory = new Map();
const storage = {
  getItem: (k) => (memory.has(k) ? memory.get(k) : null),
  setItem: (k, v) => void memory.set(k, String(v)),
  removeItem: (k) => void memory.delete(k),
  key: (i) => [...memory.keys()][i] ?? null,
  get length() {
    return memory.size;
  },
  clear: () => memory.clear(),
};
let cookie = '';
let location = new URL('http://127.0.0.1/');
const noop = () => undefined;
const element = () => ({ style: {}, setAttribute: noop, removeAttribute: noop, appendChild: noop, addEventListener: noop, removeEventListener: noop });
globalThis.window = globalThis;
globalThis.addEventListener = noop;
globalThis.removeEventListener = noop;
globalThis.localStorage = storage;
globalThis.sessionStorage = storage;
globalThis.matchMedia = () => ({ matches: false, addEventListener: noop, removeEventListener: noop, addListener: noop, removeListener: noop });
Object.defineProperty(globalThis, 'location', { get: () => location, configurable: true });
globalThis.document = {
  get cookie() {
    return cookie;
  },
  set cookie(_v) {},
  documentElement: element(),
  body: element(),
  head: element(),
  createElement: element,
  addEventListener: noop,
  removeEventListener: noop,
  querySelector: () => null,
  getElementById: () => null,
  readyState: 'complete',
  visibilityState: 'visible',
};
globalThis.__firstPaint = {
  setCookie: (c) => {
    cookie = c;
    memory.clear();
  },
  setLocation: (href) => {
    location = new URL(href);
  },
};

// The app's calls go to this server itself (the loopback address it listens on), under the name the
// reader's browser used (its Host): the server answers as it would the browser (which app a host
// serves, the links it writes), and no call leaves the machine.
let loopback = new URL('http://127.0.0.1/');
let pageHost = '';
const plainHeaders = (h) => (h instanceof Headers ? Object.fromEntries(h.entries()) : Array.isArray(h) ? Object.fromEntries(h) : { ...(h ?? {}) });
const NO_BODY = new Set([101, 103, 204, 205, 304]);
const aborted = () => new DOMException('The request was aborted.', 'AbortError');
globalThis.fetch = (input, init = {}) =>
  new Promise((resolve, reject) => {
    const signal = init.signal;
    if (signal?.aborted) return reject(aborted());
    const url = new URL(typeof input === 'string' || input instanceof URL ? String(input) : input.url, location.href);
    const req = http.request(
      // An IPv6 address in a URL is bracketed; the socket wants it bare.
      { host: loopback.hostname.replace(/^\[|\]$/g, ''), port: loopback.port, path: url.pathname + url.search, method: init.method ?? 'GET', headers: { ...plainHeaders(init.headers), host: pageHost } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          try {
            const headers = new Headers();
            for (const [k, v] of Object.entries(res.headers)) for (const one of [v].flat()) if (one !== undefined) headers.append(k, String(one));
            resolve(new Response(NO_BODY.has(res.statusCode) ? null : Buffer.concat(chunks), { status: res.statusCode, headers }));
          } catch (e) {
            reject(e);
          }
        });
      },
    );
    const onAbort = () => {
      req.destroy();
      reject(aborted());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('close', () => signal?.removeEventListener('abort', onAbort));
    req.on('error', reject);
    if (init.body !== undefined && init.body !== null) req.write(typeof init.body === 'string' ? init.body : Buffer.from(init.body));
    req.end();
  });

const { renderFirstPaint } = await import(workerData.bundle);

let queue = Promise.resolve();
parentPort.on('message', ({ id, input }) => {
  queue = queue.then(async () => {
    // Given up on already (the server answered with the plain page): not drawn for nobody.
    if (Date.now() > input.deadline) return parentPort.postMessage({ id, out: null });
    try {
      loopback = new URL(input.origin);
      pageHost = input.host;
      const out = await renderFirstPaint({ ...input, origin: `http://${input.host}` });
      parentPort.postMessage({ id, out });
    } catch (e) {
      parentPort.postMessage({ id, out: null, error: String(e?.stack ?? e) });
    }
  });
});
parentPort.postMessage({ ready: true });
