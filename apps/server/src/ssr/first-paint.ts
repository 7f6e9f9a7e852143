import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The first paint of a screen, drawn by the web app's own components in a worker thread
 * (apps/web/src/entry-server.tsx, decision 054). The worker draws one screen at a time; a screen
 * that is not drawn in time, a full queue, or a worker that failed, is answered with the plain
 * index.html: the browser then draws the screen itself, as it always could.
 */
/** `origin`: where this server listens (the worker's calls go there); `host`: the name the reader's browser used. */
export type FirstPaintInput = { origin: string; host: string; url: string; token: string; cookie: string; acceptLanguage?: string; width: number };
/** `redirect`: the screen is only a way to that address (html empty); the server answers with a redirect. */
export type FirstPaint = { html: string; state: unknown; config: { timeZone?: string; clock?: unknown }; width: number; user: string; lang: string; title: string; redirect?: string };

export type FirstPainter = {
  paint(input: FirstPaintInput): Promise<FirstPaint | null>;
  close(): Promise<void>;
  /** How many drawn pages are kept, and their size (KeptPages). */
  kept?: () => { entries: number; bytes: number };
};

/** Screens waiting beyond this are not drawn (the browser draws them). */
const MAX_WAITING = 4;

/** After the worker has stopped, how long before it is started again. */
const RESTART_AFTER_MS = 60_000;

/**
 * Drawn pages kept (decision 054): a reader who opens the same screen again (a reload, back to the
 * list, the same link) gets the page drawn before, while nothing it can show has changed. `version`
 * reads the database's count of committed changes to the tables screens show (lib/kept-answers.ts);
 * a page is kept with the count read before it was drawn, only when the count read after it is the
 * same, and served while the count is the same, within the same hour (what a screen writes of the
 * time: today, an hour ago) and for the same reader's session, address, cookies (the lists' page
 * sizes and filters), languages and width. A session that ended is refused before this (plugins/auth.ts).
 */
export type KeptPages = { version: () => Promise<string>; maxEntries?: number; maxBytes?: number };

export function startFirstPainter(bundle: string, log: FastifyBaseLogger, timeoutMs = 2000, keep?: KeptPages): FirstPainter {
  const drawer = startDrawer(bundle, log, timeoutMs);
  if (!keep) return drawer;
  const maxEntries = keep.maxEntries ?? 1000;
  const maxBytes = keep.maxBytes ?? 128 * 1024 * 1024;
  // Use order: the least recently used first.
  const kept = new Map<string, { version: string; paint: FirstPaint; bytes: number }>();
  let bytes = 0;
  const forget = (key: string) => {
    const e = kept.get(key);
    if (!e) return;
    bytes -= e.bytes;
    kept.delete(key);
  };
  return {
    async paint(input) {
      const key = JSON.stringify([input.token, input.host, input.url, input.cookie, input.acceptLanguage ?? '', input.width, new Date().toISOString().slice(0, 13)]);
      const before = await keep.version();
      const hit = kept.get(key);
      if (hit && hit.version === before) {
        kept.delete(key);
        kept.set(key, hit);
        return hit.paint;
      }
      const out = await drawer.paint(input);
      forget(key);
      if (out && (await keep.version()) === before) {
        const size = out.html.length + JSON.stringify(out.state ?? null).length;
        if (size <= maxBytes / 8) {
          kept.set(key, { version: before, paint: out, bytes: size });
          bytes += size;
          for (const [k] of kept) {
            if (kept.size <= maxEntries && bytes <= maxBytes) break;
            forget(k);
          }
        }
      }
      return out;
    },
    close: () => drawer.close(),
    kept: () => ({ entries: kept.size, bytes }),
  };
}

function startDrawer(bundle: string, log: FastifyBaseLogger, timeoutMs: number): FirstPainter {
  let worker: Worker | null = null;
  let ready: Promise<boolean> | null = null;
  let stoppedAt = 0;
  let closed = false;
  let next = 1;
  /** When the worker last said anything: one busy drawing is not stuck, one silent for 10 s is. */
  let lastHeard = Date.now();
  const waiting = new Map<number, (out: FirstPaint | null) => void>();

  /** The worker stopped (an error, or it ended): what waits is drawn by the browser; a new one later. */
  const stopped = (w: Worker) => {
    if (worker !== w) return;
    worker = null;
    ready = null;
    stoppedAt = Date.now();
    for (const done of waiting.values()) done(null);
    waiting.clear();
  };

  const start = (): Promise<boolean> => {
    if (ready) return ready;
    const w = new Worker(path.join(import.meta.dirname, 'first-paint-worker.mjs'), { workerData: { bundle }, execArgv: process.env.FIRST_PAINT_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.FIRST_PAINT_PROFILE_DIR}`] : [] });
    worker = w;
    ready = new Promise<boolean>((resolve) => {
      w.on('message', (m: { ready?: true; id?: number; out?: FirstPaint | null; error?: string }) => {
        lastHeard = Date.now();
        if (m.ready) return resolve(true);
        if (m.error) log.warn({ err: m.error }, 'first paint: a screen could not be drawn');
        const done = waiting.get(m.id!);
        waiting.delete(m.id!);
        done?.(m.out ?? null);
      });
      w.on('error', (err) => {
        log.warn({ err }, 'first paint: the worker stopped; screens are drawn by the browser meanwhile');
        resolve(false);
        stopped(w);
      });
      w.on('exit', () => {
        resolve(false);
        stopped(w);
      });
    });
    // The worker does not keep the process alive (a server that is closing closes).
    w.unref();
    return ready;
  };
  void start();

  return {
    async paint(input) {
      if (closed || waiting.size >= MAX_WAITING) return null;
      if (!ready && Date.now() - stoppedAt < RESTART_AFTER_MS) return null;
      const deadline = Date.now() + timeoutMs;
      // A worker still starting (loading the app) counts against the same time.
      const started = await Promise.race([start(), new Promise<false>((r) => setTimeout(() => r(false), timeoutMs).unref())]);
      if (!started || !worker || Date.now() >= deadline) return null;
      const w = worker;
      const id = next++;
      if (waiting.size === 0) lastHeard = Date.now();
      return new Promise<FirstPaint | null>((resolve) => {
        const timer = setTimeout(() => {
          // Too slow: the browser draws it; the worker skips it if it has not begun, and its answer,
          // when it comes, is dropped. A worker that has said nothing for ten seconds while drawings
          // wait is stuck: it is stopped (a new one a minute later).
          waiting.set(id, () => clearTimeout(stuck));
          const stuck = setTimeout(() => {
            if (waiting.has(id) && worker === w && Date.now() - lastHeard >= 10_000) void w.terminate();
          }, 10_000);
          stuck.unref();
          resolve(null);
        }, Math.max(0, deadline - Date.now()));
        waiting.set(id, (out) => {
          clearTimeout(timer);
          resolve(out);
        });
        w.postMessage({ id, input: { ...input, deadline } });
      });
    },
    async close() {
      closed = true;
      const w = worker;
      worker = null;
      await w?.terminate();
    },
  };
}
