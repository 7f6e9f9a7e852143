import { describe, expect, it } from 'vitest';
import { bearer, createTestApp } from '../../../test/harness.ts';

/**
 * A payments client (role clientPayments) reaches its own statement and nothing else of the CRM.
 * The route rules decide most of it: this walks every registered route and lists those whose rule
 * lets a clientPayments sign-in in at all. A new route that does must be added here on purpose
 * (and, if it names an account, prove its own-account check in its tests).
 */
const t = await createTestApp();
const { app } = t;
const client = await t.user({ roles: ['clientPayments'] });

/** Signed-in routes a client may call: its session, its language, and what carries no CRM data. */
const CLIENT_ROUTES = [
  'GET /api/Alert/unreadCount',
  'GET /api/authenticate/me',
  'GET /api/home',
  'POST /api/authenticate/logout',
  'POST /api/UserSettings/Language',
];
/** The payments calls a client may make: each checks the account (payments and approval tests). */
const PAYMENTS_PREFIX = '/api/transactions';

describe('what a payments client reaches', () => {
  it('is its session, its language and payments calls, nothing else of the CRM', () => {
    const reachable = app.routeAccess
      .filter((r) => r.access !== 'public' && (r.access.roles as readonly string[]).includes('clientPayments'))
      .map((r) => `${r.method} ${r.url}`);
    const other = reachable.filter((k) => !k.split(' ')[1]!.startsWith(PAYMENTS_PREFIX)).sort();
    expect(other).toEqual([...CLIENT_ROUTES].sort());
  });

  it('is told nothing of the agency by the calls it may make', async () => {
    expect((await app.inject({ url: '/api/Alert/unreadCount', headers: bearer(client.token) })).json()).toBe(0);
    const home = (await app.inject({ url: '/api/home', headers: bearer(client.token) })).json();
    // Its own sign-ins at most: the home card lists the caller's own actions only.
    expect(home.unreadAlerts).toBe(0);
    expect(home.recent.filter((r: { action: string }) => r.action !== 'Login')).toEqual([]);
  });

  it('is refused the CRM: records, search, files, settings and staff screens', async () => {
    const calls: [string, string][] = [
      ['GET', '/api/account/view/1'],
      ['GET', '/api/account'],
      ['POST', '/api/account/add'],
      ['GET', '/api/search?q=a'],
      ['GET', '/api/object/view/1'],
      ['POST', '/api/lead/search'],
      ['GET', '/api/files/1'],
      ['GET', '/api/UserRole/1'],
      ['POST', '/api/authenticate/setPassword'],
      ['GET', '/api/transactions/sendInvitation/1'],
    ];
    for (const [method, url] of calls) {
      const res = await app.inject({ method: method as 'GET', url, headers: bearer(client.token), payload: method === 'POST' ? {} : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().title).toBe('Access denied');
    }
  });
});
