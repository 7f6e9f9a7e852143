import { describe, expect, it } from 'vitest';
import { CookieJar } from '../../../lib/cookie-jar.testing.ts';

const jar = new CookieJar();
Object.assign(globalThis, { document: jar, window: { addEventListener() {}, removeEventListener() {} } });

describe('a kept statement filter that no screen wrote', () => {
  it('is read as its defaults, value by value, by the screen and by its route alike', async () => {
    const { statementSaved } = await import('./payments.ts');
    const { readSavedFilter } = await import('../../../lib/list-state.ts');
    jar.cookie = `Statement.5=${encodeURIComponent(JSON.stringify({ type: 'gift', paymentMethod: 3, categoryId: 'abc', unpaidOnly: 'yes', perPage: 0 }))}; path=/`;
    expect(readSavedFilter(statementSaved(5))).toEqual({ type: '', paymentMethod: '', categoryId: '', unpaidOnly: false, objectId: '', perPage: 25 });
    // What a screen writes stays as it is.
    jar.cookie = `Statement.6=${encodeURIComponent(JSON.stringify({ type: 'expense', paymentMethod: '2', categoryId: '12', unpaidOnly: true, objectId: '42', perPage: 100 }))}; path=/`;
    await new Promise((r) => setTimeout(r, 0)); // cookies are read once per task
    expect(readSavedFilter(statementSaved(6))).toEqual({ type: 'expense', paymentMethod: '2', categoryId: '12', unpaidOnly: true, objectId: '42', perPage: 100 });
    // A category the server would refuse (categories are 1 to 99) is no filter either.
    for (const [id, categoryId] of [[7, '0'], [8, '100'], [9, '012']] as const) {
      jar.cookie = `Statement.${id}=${encodeURIComponent(JSON.stringify({ categoryId }))}; path=/`;
      await new Promise((r) => setTimeout(r, 0));
      expect(readSavedFilter(statementSaved(id)).categoryId, categoryId).toBe('');
    }
  });
});
