import { describe, expect, it } from 'vitest';
import * as resources from '@crm/contract/resources';
import type { ListDeclaration } from '@crm/contract/resources';
import { texts } from '../lib/shipped-texts.testing.ts';

type Resource = { screens?: Record<string, string>; list?: ListDeclaration; lists?: Record<string, ListDeclaration> };

/** Every list screen the resources declare, named by its resource. */
const declared: [string, ListDeclaration][] = Object.entries(resources as Record<string, unknown>).flatMap(([name, value]) => {
  const r = value as Resource;
  if (!r || typeof r !== 'object') return [];
  return [...(r.list ? [[name, r.list] as [string, ListDeclaration]] : []), ...Object.entries(r.lists ?? {}).map(([k, l]) => [`${name}.${k}`, l] as [string, ListDeclaration])];
});

/** Every screen path a resource declares. */
const screens = new Set(Object.values(resources as Record<string, unknown>).flatMap((value) => Object.values((value as Resource | null)?.screens ?? {})));

describe('the list screens declared with their resources', () => {
  it('are the lists of the office, each with its own test id', () => {
    expect(declared.map(([, l]) => l.testId).sort()).toEqual(
      ['accounts', 'action-log', 'alerts', 'clients', 'deals', 'documents', 'employes', 'keys', 'leads', 'objects', 'owners', 'partners', 'payments', 'reservations', 'sources', 'specialists', 'viewings'].sort(),
    );
  });

  for (const culture of ['en', 'el', 'ru'] as const) {
    it(`have their title, empty texts and Add text in ${culture}`, () => {
      const shipped = texts(culture);
      for (const [name, l] of declared) {
        for (const key of [l.title, l.empty, l.noMatch, l.add?.label]) if (key) expect(shipped[key], `${name}: ${key}`).toBeTruthy();
      }
    });
  }

  it('open a declared screen with their Add', () => {
    for (const [name, l] of declared) if (l.add) expect(screens.has(l.add.to), `${name}: ${l.add.to}`).toBe(true);
  });
});
