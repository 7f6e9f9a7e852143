import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, expect, inject } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type BuildOptions } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { connectDb, type DbHandle } from '../src/db/client.ts';
import { users } from '../src/db/schema/index.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import type { TRole } from '@crm/contract';
import { multipartForm, type FormPart } from './multipart.ts';
import { parseMail } from './mime.ts';

function withDatabase(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export type TestApp = {
  app: FastifyInstance;
  db: DbHandle['db'];
  pool: DbHandle['pool'];
  config: Config;
  dataDir: string;
  /** The URL of this test's database (a second app instance can be built on it). */
  dbUrl: string;
  /** Creates a sign-in: its e-mail, password and bearer token, and calls to the API made as it. */
  user: (opts?: { roles?: TRole[]; branchId?: number | null; email?: string; password?: string; language?: string }) => Promise<SignIn>;
  login: (email: string, password: string) => Promise<string>;
  /** Calls to the API with a bearer token (one from `login`), or signed in as nobody. */
  client: (token?: string | null) => Client;
  /** Mails written to the file outbox, oldest first. */
  outbox: () => { file: string; text: string }[];
  /** The newest mail to `to` (headers and decoded body), once the app's background work (the mail queue) is done; fails when there is none. */
  lastMailTo: (to: string) => Promise<string>;
};

/** A fresh database copied from the migrated template, and the app built on it. */
export async function createTestApp(
  env: Record<string, string> = {},
  beforeReady?: (app: FastifyInstance) => void | Promise<void>,
  build: Pick<BuildOptions, 'now' | 'jobs'> = {},
): Promise<TestApp> {
  const serverUrl = inject('serverUrl');
  const templateDb = inject('templateDb');
  const name = `crm_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${templateDb}`);
  await admin.end();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-test-data-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PASSWORD_HASH_FAST: 'true', LOG_LEVEL: 'silent', ...env });
  const dbUrl = withDatabase(serverUrl, name);
  const handle = connectDb(dbUrl, 5, { timeZone: config.timeZone });
  const app = await buildApp({ ...build, config, db: handle.db, serveWeb: !!env.WEB_DIST });
  await beforeReady?.(app);
  await app.ready();

  const login = async (email: string, password: string) => {
    const res = await app.inject({ method: 'POST', url: '/api/authenticate/login', payload: { username: email, password } });
    if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
    return res.json().token as string;
  };
  let n = 0;
  const user: TestApp['user'] = async (opts = {}) => {
    const email = opts.email ?? `user${++n}-${randomBytes(3).toString('hex')}@agency.test`;
    const password = opts.password ?? 'correct horse battery';
    const [u] = await handle.db
      .insert(users)
      .values({
        email,
        username: email,
        passwordHash: await hashPassword(password, true),
        roles: opts.roles ?? ['employee'],
        branchId: opts.branchId ?? null,
        language: opts.language ?? null,
      })
      .returning();
    const token = await login(email, password);
    return { id: u!.id, email, password, token, ...apiClient(app, token) };
  };
  const outbox = () => {
    const dir = path.join(dataDir, 'outbox');
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .sort()
      .map((f) => ({ file: f, text: fs.readFileSync(path.join(dir, f), 'utf8') }));
  };

  afterAll(async () => {
    await app.close();
    await handle.close();
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const lastMailTo = async (to: string) => {
    while (app.pendingWork.size) await Promise.all([...app.pendingWork]);
    const m = outbox().filter((f) => f.text.includes(`To: ${to}`)).at(-1);
    expect(m, `a mail to ${to}`).toBeDefined();
    return decodeMail(m!.text);
  };

  return { app, db: handle.db, pool: handle.pool, config, dataDir, dbUrl, user, login, client: (token) => apiClient(app, token), outbox, lastMailTo };
}

/**
 * An .eml file of the outbox as its headers (encoded words decoded) and its text parts decoded:
 * the plain text first, then the HTML.
 */
export function decodeMail(eml: string): string {
  const m = parseMail(eml);
  const head = m.headers;
  const texts = m.parts.filter((p) => p.type === 'text/plain').concat(m.parts.filter((p) => p.type === 'text/html'));
  return `${head}\n\n${texts.map((p) => p.text).join('\n\n')}`;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export type Reply = LightMyRequestResponse;
export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** What one call adds: the language asked for (Accept-Language), other headers, the caller's address. */
export type CallOptions = { lang?: string; headers?: Record<string, string>; remoteAddress?: string };

/** Calls to the API as one sign-in (or as nobody); each answers the reply as it came. */
export type Client = {
  /** The headers every call sends: the bearer, if any. */
  headers: Record<string, string>;
  call: (method: Method, url: string, payload?: unknown, opts?: CallOptions) => Promise<Reply>;
  get: (url: string, opts?: CallOptions) => Promise<Reply>;
  post: (url: string, payload?: unknown, opts?: CallOptions) => Promise<Reply>;
  patch: (url: string, payload?: unknown, opts?: CallOptions) => Promise<Reply>;
  del: (url: string, opts?: CallOptions) => Promise<Reply>;
  /** A multipart/form-data POST: its text fields, then its files. */
  upload: (url: string, parts: FormPart[], opts?: CallOptions) => Promise<Reply>;
};

export type SignIn = { id: number; email: string; password: string; token: string } & Client;

export function apiClient(app: FastifyInstance, token?: string | null): Client {
  const headers: Record<string, string> = token ? bearer(token) : {};
  const call: Client['call'] = (method, url, payload, opts = {}) =>
    app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
      headers: { ...headers, ...(opts.lang ? { 'accept-language': opts.lang } : {}), ...opts.headers },
      ...(opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {}),
    });
  return {
    headers,
    call,
    get: (url, opts) => call('GET', url, undefined, opts),
    post: (url, payload, opts) => call('POST', url, payload, opts),
    patch: (url, payload, opts) => call('PATCH', url, payload, opts),
    del: (url, opts) => call('DELETE', url, undefined, opts),
    upload: (url, parts, opts = {}) => {
      const form = multipartForm(parts);
      return call('POST', url, form.payload, { ...opts, headers: { ...form.headers, ...opts.headers } });
    },
  };
}

/** The body of a reply that came with `status` (200 unless said); otherwise the test fails, showing the body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as Reply.json(): the body is what the test reads it as
export async function json<T = any>(reply: Reply | Promise<Reply>, status = 200): Promise<T> {
  const res = await reply;
  expect(res.statusCode, `${res.raw.req.method} ${res.raw.req.url}: ${res.body}`).toBe(status);
  return res.json<T>();
}

/**
 * A one-field change as the single-field editor makes it (PATCH /api/{entity}/patch/{id}): based on
 * the version its edit request answers, as every change must be (decision 002).
 */
export async function patchField(as: Client, entity: string, id: number, field: string, value: unknown, opts?: CallOptions) {
  const asked = await as.get(`/api/${entity}/editRequestSelectList?id=${id}&fieldName=${field}`, opts);
  const version = asked.statusCode === 200 ? (asked.json() as { version?: number }).version : undefined;
  return as.patch(`/api/${entity}/patch/${id}${version === undefined ? '' : `?version=${version}`}`, [{ op: 'replace', path: `/${field}`, value }], opts);
}

/**
 * Further instances of the app on a test's database (each with its own pool and job runner), as
 * several processes of one deployment run: each call builds one (`options`: no web, no jobs);
 * all still open are closed after the file's tests. A test that closes one itself (a restart) sets
 * its `app` to undefined.
 */
export function appInstances(
  t: Pick<TestApp, 'dbUrl' | 'config'>,
  options: Pick<BuildOptions, 'serveWeb' | 'jobs'> = {},
): () => Promise<{ app: FastifyInstance; handle: DbHandle }> {
  const made: { app?: FastifyInstance; handle: DbHandle }[] = [];
  afterAll(async () => {
    for (const e of made) {
      await e.app?.close();
      await e.handle.close();
    }
  });
  return async () => {
    const handle = connectDb(t.dbUrl, 3, { timeZone: t.config.timeZone });
    const app = await buildApp({ config: t.config, db: handle.db, ...options });
    await app.ready();
    const entry = { app, handle };
    made.push(entry);
    return entry;
  };
}

/** A sign-in of each role a route's access is checked against: an office admin, an agent, a branch's agent (branch 1) and a payments client. */
export async function signInsOfEachRole(t: Pick<TestApp, 'user'>) {
  const admin = await t.user({ roles: ['admin'] });
  const agent = await t.user({ roles: ['employee'] });
  const branchAgent = await t.user({ roles: ['employee'], branchId: 1 });
  const payer = await t.user({ roles: ['clientPayments'] });
  return { admin, agent, branchAgent, payer };
}

/**
 * A waiter for what other processes or the background work make true: `until(what, probe)` looks
 * every `everyMs` until `probe` answers something (answered back) and fails after `seconds`, naming
 * `what`.
 */
export function poller({ seconds, everyMs }: { seconds: number; everyMs: number }) {
  return async function until<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false): Promise<T> {
    const end = Date.now() + seconds * 1000;
    for (;;) {
      const v = await probe();
      if (v) return v;
      if (Date.now() > end) throw new Error(`waited in vain for ${what}`);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  };
}
