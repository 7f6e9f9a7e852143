import { beforeEach, describe, expect, it } from 'vitest';

/**
 * A cookie jar as the browser keeps one behind document.cookie: "name=value; path=/; max-age=N"
 * sets (max-age=0 deletes), reading answers "a=1; b=2". The header a request would carry is that.
 */
class CookieJar {
  jar = new Map<string, string>();
  get cookie() {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  set cookie(line: string) {
    const [pair, ...attrs] = line.split('; ');
    const i = pair!.indexOf('=');
    const name = pair!.slice(0, i);
    const maxAge = attrs.find((a) => a.startsWith('max-age='));
    if (maxAge === 'max-age=0') this.jar.delete(name);
    else this.jar.set(name, pair!.slice(i + 1));
  }
}

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

describe('a kept statement filter that no screen wrote', () => {
  it('is read as its defaults, value by value, by the screen and by its route alike', async () => {
    const { statementSaved } = await import('../features/payments/api/payments.ts');
    const { readSavedFilter } = await import('./list-state.ts');
    jar.cookie = `Statement.5=${encodeURIComponent(JSON.stringify({ type: 'gift', paymentMethod: 3, categoryId: 'abc', unpaidOnly: 'yes', perPage: 0 }))}; path=/`;
    expect(readSavedFilter(statementSaved(5))).toEqual({ type: '', paymentMethod: '', categoryId: '', unpaidOnly: false, perPage: 25 });
    // What a screen writes stays as it is.
    jar.cookie = `Statement.6=${encodeURIComponent(JSON.stringify({ type: 'expense', paymentMethod: '2', categoryId: '12', unpaidOnly: true, perPage: 100 }))}; path=/`;
    await new Promise((r) => setTimeout(r, 0)); // cookies are read once per task
    expect(readSavedFilter(statementSaved(6))).toEqual({ type: 'expense', paymentMethod: '2', categoryId: '12', unpaidOnly: true, perPage: 100 });
    // A category the server would refuse (categories are 1 to 99) is no filter either.
    for (const [id, categoryId] of [[7, '0'], [8, '100'], [9, '012']] as const) {
      jar.cookie = `Statement.${id}=${encodeURIComponent(JSON.stringify({ categoryId }))}; path=/`;
      await new Promise((r) => setTimeout(r, 0));
      expect(readSavedFilter(statementSaved(id)).categoryId, categoryId).toBe('');
    }
  });
});
