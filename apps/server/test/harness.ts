import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, expect, inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { connectDb, type DbHandle } from '../src/db/client.ts';
import { users } from '../src/db/schema/index.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import type { TRole } from '@crm/contract';

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
  /** Creates a sign-in and returns its e-mail, password and a bearer token. */
  user: (opts?: { roles?: TRole[]; branchId?: number | null; email?: string; password?: string; language?: string }) => Promise<{ id: number; email: string; password: string; token: string }>;
  login: (email: string, password: string) => Promise<string>;
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
    return { id: u!.id, email, password, token: await login(email, password) };
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

  return { app, db: handle.db, pool: handle.pool, config, dataDir, dbUrl, user, login, outbox, lastMailTo };
}

/** An .eml file of the outbox as its headers and its body decoded (base64 or quoted-printable). */
export function decodeMail(eml: string): string {
  const at = eml.indexOf('\n\n');
  const head = eml.slice(0, at);
  const raw = eml.slice(at + 2);
  const enc = /Content-Transfer-Encoding:\s*(\S+)/i.exec(head)?.[1]?.toLowerCase();
  const body =
    enc === 'base64'
      ? Buffer.from(raw.replace(/\s+/g, ''), 'base64').toString('utf8')
      : enc === 'quoted-printable'
        ? Buffer.from(raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8')
        : raw;
  return `${head}\n\n${body}`;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * A one-field change as the single-field editor makes it (PATCH /api/{entity}/patch/{id}): based on
 * the version its edit request answers, as every change must be (decision 002).
 */
export async function patchField(app: FastifyInstance, headers: Record<string, string>, entity: string, id: number, field: string, value: unknown) {
  const asked = await app.inject({ method: 'GET', url: `/api/${entity}/editRequestSelectList?id=${id}&fieldName=${field}`, headers });
  const version = asked.statusCode === 200 ? (asked.json() as { version?: number }).version : undefined;
  return app.inject({ method: 'PATCH', url: `/api/${entity}/patch/${id}${version === undefined ? '' : `?version=${version}`}`, headers, payload: [{ op: 'replace', path: `/${field}`, value }] });
}
