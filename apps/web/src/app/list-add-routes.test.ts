import { beforeAll, describe, expect, it } from 'vitest';
import { matchRoutes, type RouteObject } from 'react-router';
import * as resources from '@crm/contract/resources';
import { href } from '@crm/contract/resources';
import type { ListDeclaration } from '@crm/contract/resources';
import { startShippedTextsSignedOut } from '../lib/shipped-texts.testing.ts';

type Resource = { list?: ListDeclaration; lists?: Record<string, ListDeclaration> };

/** Every list's declared Add, named by its resource. */
const adds = Object.entries(resources as Record<string, unknown>).flatMap(([name, value]) => {
  const r = value as Resource | null;
  if (!r || typeof r !== 'object') return [];
  const lists: [string, ListDeclaration][] = [...(r.list ? [[name, r.list] as [string, ListDeclaration]] : []), ...Object.entries(r.lists ?? {}).map(([k, l]) => [`${name}.${k}`, l] as [string, ListDeclaration])];
  return lists.flatMap(([n, l]) => (l.add ? [[n, l.add.to] as const] : []));
});

let routes: RouteObject[];
beforeAll(async () => {
  // The router's modules read the session (local storage, the page's listeners) when they load.
  await startShippedTextsSignedOut();
  routes = (await import('./router.tsx')).appRoutes();
});

/** The screen route the web's router opens for an address ('*' is the not-found screen). */
const routeOf = (address: string) => matchRoutes(routes, address)?.at(-1)?.route.path;

describe("a list's Add", () => {
  it('is declared by the lists that have one', () => {
    expect(adds.length).toBeGreaterThanOrEqual(15);
  });

  for (const [name, to] of adds) {
    it(`of ${name} (${to}) opens a screen of the router`, () => {
      // The address the list's Add button links to (list-screen.tsx), its optional params left out.
      const address = href(to);
      const route = routeOf(address);
      // Its own route, not a record's opened with a wrong id (an `:id` route's not-found screen).
      expect(route, `${name}: ${address}`).toBe(to);
    });
  }
});
