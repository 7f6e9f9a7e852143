import { describe, expect, it } from 'vitest';
import * as resources from '@crm/contract/resources';
import { createTestApp } from './harness.ts';

/**
 * Every call is declared once, in its resource of the contract, and the server registers its routes
 * from the declarations (decision 057). A route registered by hand, which no resource declares, or
 * a declared call that no route answers, fails here; so does a call declared twice.
 */
type Declared = { where: string; method: string; path: string };

/** The calls of a resource: its `calls` and any table within it (the field editor's of each entity); never its screens. */
function callsOf(where: string, value: unknown): Declared[] {
  if (typeof value !== 'object' || value === null) return [];
  const v = value as Record<string, unknown>;
  if (typeof v.method === 'string' && typeof v.path === 'string') return [{ where, method: v.method, path: v.path }];
  return Object.entries(v).flatMap(([k, inner]) => (k === 'screens' ? [] : callsOf(`${where}.${k}`, inner)));
}

const declared = Object.entries(resources).flatMap(([name, r]) => (typeof r === 'object' && r !== null && 'calls' in r ? callsOf(name, r) : []));
const key = (method: string, path: string) => `${method} ${path}`;

const { app } = await createTestApp();
// Every route the app registered with an access rule: the whole API, and the public site's pages
// (the web app's own pages are served only with its build, and are no calls).
const registered = [...new Set(app.routeAccess.map((r) => key(r.method, r.url)))].sort();

describe('the calls the contract declares', () => {
  it('are every call the server answers: no route is registered by hand', () => {
    expect(declared.length).toBeGreaterThan(150);
    const known = new Set(declared.map((d) => key(d.method, d.path)));
    expect(
      registered.filter((r) => !known.has(r)),
      'routes no resource declares (by this method and path, letter case too): declare them in their resource (packages/contract/src/*.resource.ts) and register them with registerCalls',
    ).toEqual([]);
  });

  it('are each answered by a route of the method and path declared', () => {
    const answered = new Set(registered);
    expect(
      declared.filter((d) => !answered.has(key(d.method, d.path))).map((d) => `${d.where}: ${key(d.method, d.path)}`),
      'declared calls no route answers',
    ).toEqual([]);
  });

  it('are declared once', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const d of declared) {
      const k = key(d.method, d.path).toLowerCase();
      const first = seen.get(k);
      if (first) twice.push(`${key(d.method, d.path)}: ${first} and ${d.where}`);
      else seen.set(k, d.where);
    }
    expect(twice).toEqual([]);
  });

  it('name screens as the web app addresses them, never an API path', () => {
    const screens = Object.entries(resources).flatMap(([name, r]) =>
      typeof r === 'object' && r !== null && 'screens' in r ? Object.entries(r.screens as Record<string, string>).map(([s, path]) => ({ where: `${name}.screens.${s}`, path })) : [],
    );
    expect(screens.length).toBeGreaterThan(50);
    expect(screens.filter((s) => !/^\/[A-Za-z]/.test(s.path) || /^\/api\//i.test(s.path)).map((s) => s.where)).toEqual([]);
  });
});
