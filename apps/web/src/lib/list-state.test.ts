import { beforeEach, describe, expect, it } from 'vitest';

import { CookieJar } from './cookie-jar.testing.ts';

const jar = new CookieJar();
Object.assign(globalThis, { document: jar, window: { addEventListener() {}, removeEventListener() {} } });
const { keepInFamily } = await import('./list-state.ts');
const { getJsonCookie } = await import('./cookies.ts');

const family = { index: 'Statement.recent', keep: 30, prefix: 'Statement.' };
const filter = (n: number) => ({ type: 'expense', paymentMethod: '', categoryId: String(n), unpaidOnly: true, perPage: 50 });

describe("a statement's filter kept per account", () => {
  beforeEach(() => jar.jar.clear());

  it('keeps the 30 accounts changed last, so the cookies a request carries stay bounded', () => {
    for (let id = 1; id <= 500; id++) keepInFamily(family, `Statement.${id}`, filter(id));
    const names = [...jar.jar.keys()].filter((n) => n.startsWith('Statement.'));
    expect(names).toHaveLength(31);
    expect(getJsonCookie(`Statement.500`)).toEqual(filter(500));
    expect(getJsonCookie(`Statement.471`)).toEqual(filter(471));
    expect(getJsonCookie(`Statement.470`)).toBeUndefined();
    expect(jar.cookie.length).toBeLessThan(8000);
    // One used again moves to the front and is kept.
    keepInFamily(family, 'Statement.471', filter(9));
    for (let id = 501; id <= 529; id++) keepInFamily(family, `Statement.${id}`, filter(id));
    expect(getJsonCookie('Statement.471')).toEqual(filter(9));
    expect(getJsonCookie('Statement.472')).toBeUndefined();
  });

  it('removes the cookie of a filter set back to its defaults, and cookies written before the family was kept', () => {
    jar.cookie = 'Statement.7=%7B%7D; path=/; max-age=315360000';
    jar.cookie = 'Statement.8=%7B%7D; path=/; max-age=315360000';
    jar.cookie = 'OwnerList.list=%7B%7D; path=/; max-age=315360000';
    keepInFamily(family, 'Statement.9', filter(9));
    expect([...jar.jar.keys()].sort()).toEqual(['OwnerList.list', 'Statement.9', 'Statement.recent']);
    keepInFamily(family, 'Statement.9', undefined);
    expect([...jar.jar.keys()]).toEqual(['OwnerList.list']);
  });
});

