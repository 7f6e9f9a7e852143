// The worker that draws a screen's first paint with the web app's own components (decision 054).
// The app reads `window`, `document`, `localStorage` and `location`: they are given here, in this
// thread only, so nothing of the browser's leaks into the server's own thread. One screen at a time.
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

const { renderFirstPaint } = await import(workerData.bundle);

let queue = Promise.resolve();
parentPort.on('message', ({ id, input }) => {
  queue = queue.then(async () => {
    try {
      const out = await renderFirstPaint(input);
      parentPort.postMessage({ id, out });
    } catch (e) {
      parentPort.postMessage({ id, out: null, error: String(e?.stack ?? e) });
    }
  });
});
parentPort.postMessage({ ready: true });
