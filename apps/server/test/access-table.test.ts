import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Access, RouteAccess } from '../src/plugins/auth.ts';
import { createTestApp, type Method, type TestApp } from './harness.ts';
import { isPaymentsAppRoute } from '../src/lib/variant.ts';
import { keyAreaOf, keyColumn } from '../src/modules/integrations/key-areas.ts';
import { agencyToday } from '../src/lib/dates.ts';
import { API_KEY_AREAS } from '@crm/contract';

/**
 * docs/access.md is the one table of who may call what. Every registered /api route must have its
 * row, and the row must say what the route's access rule does; then every caller the row refuses
 * is actually refused (401 or 403) by the running app.
 */
const DOC = path.resolve(import.meta.dirname, '../../../docs/access.md');
const CALLERS = ['anonymous', 'clientPayments', 'branch employee', 'employee', 'branch admin', 'office admin'] as const;
type Caller = (typeof CALLERS)[number];
const WHO: Record<Caller, { roles: string[]; branchId: number | null } | null> = {
  anonymous: null,
  clientPayments: { roles: ['clientPayments'], branchId: null },
  'branch employee': { roles: ['employee'], branchId: 1 },
  employee: { roles: ['employee'], branchId: null },
  'branch admin': { roles: ['admin'], branchId: 1 },
  'office admin': { roles: ['admin'], branchId: null },
};

function allows(access: Access, caller: Caller): boolean {
  if (access === 'public') return true;
  const who = WHO[caller];
  if (!who) return false;
  if (!who.roles.some((r) => (access.roles as readonly string[]).includes(r))) return false;
  return !(access.branch === false && who.branchId !== null);
}

const t = await createTestApp();
const { app } = t;
const routes: RouteAccess[] = [...app.routeAccess].sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
const key = (method: string, url: string) => `${method} ${url}`;

/** The table's rows: "| METHOD | path | ✓/— ×6 | API key | note |". */
function readTable(): Map<string, { allowed: boolean[]; key: string; note: string }> {
  const rows = new Map<string, { allowed: boolean[]; key: string; note: string }>();
  if (!fs.existsSync(DOC)) return rows;
  const text = fs.readFileSync(DOC, 'utf8');
  // The table before it had the API key column (it is written anew with it).
  const keyed = text.includes('| API key |');
  for (const line of text.split('\n')) {
    const m = /^\|\s*(GET|POST|PUT|PATCH|DELETE)\s*\|\s*`([^`]+)`\s*\|(.*)\|\s*$/.exec(line);
    if (!m) continue;
    const cells = m[3]!.split('|').map((c) => c.trim());
    rows.set(key(m[1]!, m[2]!), { allowed: cells.slice(0, 6).map((c) => c === '✓'), key: keyed ? (cells[6] ?? '') : '', note: cells.slice(keyed ? 7 : 6).filter(Boolean).join(' ') });
  }
  return rows;
}

function renderTable(existing: Map<string, { note: string }>): string {
  const lines = routes.map((r) => {
    const cells = CALLERS.map((c) => (allows(r.access, c) ? '✓' : '—'));
    return `| ${r.method} | \`${r.url}\` | ${cells.join(' | ')} | ${keyColumn(r.method, r.url)} | ${existing.get(key(r.method, r.url))?.note ?? ''} |`;
  });
  return `| method | path | ${CALLERS.join(' | ')} | API key | further rules |\n|---|---|${CALLERS.map(() => ':-:').join('|')}|:-:|---|\n${lines.join('\n')}\n`;
}

/** A route's path as the tests call it: each param given a value that names something (an entity, a file, an id). */
const tried = (url: string) => url.replace(/:(\w+)/g, (_m, name: string) => (name === 'parent' ? 'account' : name === 'entity' ? 'account' : name === 'systemName' ? 'x.pdf' : '1'));

/** A sign-in for each caller of the table that is somebody (the public is nobody). */
async function tokensOf(app: Pick<TestApp, 'user'>) {
  const tokens: Partial<Record<Caller, string>> = {};
  for (const c of CALLERS) {
    const who = WHO[c];
    if (who) tokens[c] = (await app.user({ roles: who.roles as never, branchId: who.branchId })).token;
  }
  return tokens;
}

describe('the access table', () => {
  it('has a row for every registered route, saying what its rule does', () => {
    const table = readTable();
    if (process.env.WRITE_ACCESS_TABLE) {
      const text = fs.readFileSync(DOC, 'utf8');
      const start = text.indexOf('| method | path |');
      fs.writeFileSync(DOC, text.slice(0, start) + renderTable(table));
      return;
    }
    const missing = routes.filter((r) => !table.has(key(r.method, r.url))).map((r) => key(r.method, r.url));
    expect(missing, 'routes without a row in docs/access.md (run with WRITE_ACCESS_TABLE=1 and fill in the notes)').toEqual([]);
    const stale = [...table.keys()].filter((k) => !routes.some((r) => key(r.method, r.url) === k));
    expect(stale, 'rows in docs/access.md for routes that no longer exist').toEqual([]);
    for (const r of routes) {
      expect(table.get(key(r.method, r.url))!.allowed, key(r.method, r.url)).toEqual(CALLERS.map((c) => allows(r.access, c)));
      // The area an API key needs for it (decision 080), as the server decides it.
      expect(table.get(key(r.method, r.url))!.key, `${key(r.method, r.url)}: API key`).toBe(keyColumn(r.method, r.url));
    }
  });

  it('refuses every caller the table refuses, on every route', async () => {
    const tokens = await tokensOf(t);
    const table = readTable();
    const wrong: string[] = [];
    for (const r of routes) {
      const url = tried(r.url);
      for (const [i, c] of CALLERS.entries()) {
        if (table.get(key(r.method, r.url))?.allowed[i]) continue;
        const res = await t.client(tokens[c]).call(r.method as Method, url, r.method === 'GET' || r.method === 'DELETE' ? undefined : {});
        const expected = c === 'anonymous' ? 401 : 403;
        if (res.statusCode !== expected) wrong.push(`${r.method} ${url} as ${c}: ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

/**
 * API keys (decision 080): a key reaches a route only through the area the table's "API key" column
 * names, at its level. Every refusal the column implies is asked for (nothing is let through, so
 * nothing acts): a route of no area refuses a key with every scope; a write refuses a key that only
 * reads; a route of an area refuses a key with every other area.
 */
describe('the access table for API keys', () => {
  it('refuses every key the column refuses, on every route', async () => {
    const admin = await t.user({ roles: ['admin'] });
    const expiresOn = agencyToday(t.config.timeZone);
    const make = async (level: (area: string) => string) =>
      (await admin.post('/api/ApiKeys', { name: 'access table', scopes: Object.fromEntries(API_KEY_AREAS.map((a) => [a, level(a)])), expiresOn })).json().secret as string;
    const every = await make(() => 'write');
    const reading = await make(() => 'read');
    const allBut = Object.fromEntries(await Promise.all(API_KEY_AREAS.map(async (x) => [x, await make((a) => (a === x ? 'none' : 'write'))] as const)));
    const wrong: string[] = [];
    for (const r of routes) {
      if (r.access === 'public' || !r.url.startsWith('/api')) continue;
      const url = tried(r.url);
      const a = keyAreaOf(r.method, r.url);
      const area = a?.area === 'entity' ? 'accounts' : a?.area;
      const keys = !a ? [every] : [...(a.write ? [reading] : []), allBut[area!]!];
      for (const k of keys) {
        const res = await t.client(k).call(r.method as Method, url, r.method === 'GET' || r.method === 'DELETE' ? undefined : {});
        if (res.statusCode !== 403) wrong.push(`${r.method} ${url} (${keyColumn(r.method, r.url)}): ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

/**
 * The payments host (decision 019): only the payments app's calls exist there; to everyone else's
 * calls the answer is 404 whoever asks; staff cannot sign in, and a staff session counts for nothing.
 */
describe('the payments host', () => {
  const HOST = 'pay.agency.test';
  const listed = (): string[] => {
    const text = fs.readFileSync(DOC, 'utf8');
    const block = text.slice(text.indexOf('<!-- payments-app -->'), text.indexOf('<!-- /payments-app -->'));
    return [...block.matchAll(/^- `((?:GET|POST|PUT|PATCH|DELETE) \S+)`$/gm)].map((m) => m[1]!);
  };
  const inApp = (r: RouteAccess) => isPaymentsAppRoute(r.url);

  it('the table lists the payments app’s calls as the app has them', () => {
    const named = routes.filter((r) => inApp(r) && !/^\/api\/transactions(\/|$)/i.test(r.url)).map((r) => key(r.method, r.url));
    expect(named.sort()).toEqual(listed().sort());
    // Every call under /api/transactions is the payments app's, and nothing else is.
    expect(routes.filter((r) => /^\/api\/transactions(\/|$)/i.test(r.url)).every(inApp)).toBe(true);
  });

  it('answers 404 to every other route whoever asks, and takes no staff session on its own routes', async () => {
    const pay = await createTestApp({ PAYMENTS_HOST: HOST });
    // Sessions made on the CRM's host (the test app's default host).
    const tokens = await tokensOf(pay);
    const table = readTable();
    const wrong: string[] = [];
    for (const r of routes) {
      const url = tried(r.url);
      for (const [i, c] of CALLERS.entries()) {
        // On its own calls: a staff member's session is no session (401 where a sign-in is needed).
        // Only refusals are asked for (a call let through would act: a sign-out ends the session).
        const staff = c !== 'anonymous' && c !== 'clientPayments';
        const refused = !table.get(key(r.method, r.url))?.allowed[i] || (staff && r.access !== 'public');
        if (inApp(r) && !refused) continue;
        const res = await pay.client(tokens[c]).call(r.method as Method, url, r.method === 'GET' || r.method === 'DELETE' ? undefined : {}, { headers: { host: HOST } });
        const expected = !inApp(r) ? 404 : c === 'anonymous' || staff ? 401 : 403;
        if (res.statusCode !== expected) wrong.push(`${r.method} ${url} as ${c}: ${res.statusCode}, not ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
    await pay.app.close();
  });

  it('refuses a staff sign-in with a message that says where to sign in; a client signs in', async () => {
    const pay = await createTestApp({ PAYMENTS_HOST: HOST });
    const login = (email: string, password: string, host = HOST) =>
      pay.app.inject({ method: 'POST', url: '/api/authenticate/login', headers: { host, 'accept-language': 'en' }, payload: { username: email, password } });
    const admin = await pay.user({ roles: ['admin'] });
    const agent = await pay.user({ roles: ['employee'] });
    const client = await pay.user({ roles: ['clientPayments'] });
    for (const staff of [admin, agent]) {
      const res = await login(staff.email, staff.password);
      expect(res.statusCode).toBe(403);
      expect(res.json().title).toBe("This address is for the agency's clients. Staff sign in at the CRM's own address.");
      // A wrong password is told as any wrong password: nothing learnt of who is staff.
      expect((await login(staff.email, 'wrong password!')).statusCode).toBe(401);
      // On the CRM's own host, as before.
      expect((await login(staff.email, staff.password, 'localhost')).statusCode).toBe(200);
    }
    const ok = await login(client.email, client.password);
    expect(ok.statusCode).toBe(200);
    const signedIn = pay.client(ok.json().token as string);
    const onPay = { headers: { host: HOST } };
    expect((await signedIn.get('/api/transactions/accounts', onPay)).statusCode).toBe(200);
    expect((await signedIn.get('/api/account', onPay)).statusCode).toBe(404);
    await pay.app.close();
  });

  it('with PAYMENTS_ADMINS an administrator signs in there, to the payments calls only', async () => {
    const pay = await createTestApp({ PAYMENTS_ONLY: 'true', PAYMENTS_ADMINS: 'true' });
    const admin = await pay.user({ roles: ['admin'] });
    const login = (email: string, password: string) => pay.app.inject({ method: 'POST', url: '/api/authenticate/login', payload: { username: email, password } });
    // An employee is refused still (the harness's own sign-in of it fails so).
    await expect(pay.user({ roles: ['employee'] })).rejects.toThrow(/login failed: 403/);
    const res = await login(admin.email, admin.password);
    expect(res.statusCode).toBe(200);
    const signedIn = pay.client(res.json().token as string);
    expect((await signedIn.get('/api/transactions/accounts')).statusCode).toBe(200);
    for (const url of ['/api/account', '/api/object/view/1', '/api/search?searchStr=a', '/api/actionLog']) {
      expect((await signedIn.get(url)).statusCode, url).toBe(404);
    }
    await pay.app.close();
  });
});
