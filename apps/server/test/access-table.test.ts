import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Access, RouteAccess } from '../src/plugins/auth.ts';
import { bearer, createTestApp } from './harness.ts';

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

/** The table's rows: "| METHOD | path | ✓/— ×6 | note |". */
function readTable(): Map<string, { allowed: boolean[]; note: string }> {
  const rows = new Map<string, { allowed: boolean[]; note: string }>();
  if (!fs.existsSync(DOC)) return rows;
  for (const line of fs.readFileSync(DOC, 'utf8').split('\n')) {
    const m = /^\|\s*(GET|POST|PUT|PATCH|DELETE)\s*\|\s*`([^`]+)`\s*\|(.*)\|\s*$/.exec(line);
    if (!m) continue;
    const cells = m[3]!.split('|').map((c) => c.trim());
    rows.set(key(m[1]!, m[2]!), { allowed: cells.slice(0, 6).map((c) => c === '✓'), note: cells.slice(6).filter(Boolean).join(' ') });
  }
  return rows;
}

function renderTable(existing: Map<string, { note: string }>): string {
  const lines = routes.map((r) => {
    const cells = CALLERS.map((c) => (allows(r.access, c) ? '✓' : '—'));
    return `| ${r.method} | \`${r.url}\` | ${cells.join(' | ')} | ${existing.get(key(r.method, r.url))?.note ?? ''} |`;
  });
  return `| method | path | ${CALLERS.join(' | ')} | further rules |\n|---|---|${CALLERS.map(() => ':-:').join('|')}|---|\n${lines.join('\n')}\n`;
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
    }
  });

  it('refuses every caller the table refuses, on every route', async () => {
    const tokens: Partial<Record<Caller, string>> = {};
    for (const c of CALLERS) {
      const who = WHO[c];
      if (who) tokens[c] = (await t.user({ roles: who.roles as never, branchId: who.branchId })).token;
    }
    const table = readTable();
    const wrong: string[] = [];
    for (const r of routes) {
      const url = r.url.replace(/:(\w+)/g, (_m, name: string) => (name === 'parent' ? 'account' : name === 'entity' ? 'account' : name === 'systemName' ? 'x.pdf' : '1'));
      for (const [i, c] of CALLERS.entries()) {
        if (table.get(key(r.method, r.url))?.allowed[i]) continue;
        const token = tokens[c];
        const res = await app.inject({ method: r.method as 'GET', url, headers: token ? bearer(token) : {}, payload: r.method === 'GET' || r.method === 'DELETE' ? undefined : {} });
        const expected = c === 'anonymous' ? 401 : 403;
        if (res.statusCode !== expected) wrong.push(`${r.method} ${url} as ${c}: ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
