import { beforeAll, describe, expect, it } from 'vitest';

/** localStorage as the browser keeps it (strings by key). */
class MemoryStorage {
  map = new Map<string, string>();
  getItem(k: string) {
    return this.map.has(k) ? this.map.get(k)! : null;
  }
  setItem(k: string, v: string) {
    this.map.set(k, String(v));
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
}
const storage = new MemoryStorage();
let recent: typeof import('./recent.ts');

beforeAll(async () => {
  Object.assign(globalThis, { localStorage: storage, window: new EventTarget() });
  recent = await import('./recent.ts');
});

describe('the recently opened records of a sign-in whose name changed', () => {
  const list = JSON.stringify([{ kind: 'account', id: 7, label: 'Papadopoulou Maria' }]);

  it('move to the new name, and nothing of them stays under the old one', () => {
    storage.setItem('crm.recent.maria k', list);
    recent.renameRecent('Maria K', 'Maria Kostopoulou');
    expect(storage.getItem('crm.recent.maria kostopoulou')).toBe(list);
    expect(storage.getItem('crm.recent.maria k')).toBeNull();
  });

  it('never replace a list the new name has already, yet still leave nothing under the old one', () => {
    const mine = JSON.stringify([{ kind: 'object', id: 3, label: '#1203 Flat in Kalamaria' }]);
    storage.setItem('crm.recent.nikos', list);
    storage.setItem('crm.recent.nikos oikonomou', mine);
    recent.renameRecent('Nikos', 'Nikos Oikonomou');
    expect(storage.getItem('crm.recent.nikos oikonomou')).toBe(mine);
    expect(storage.getItem('crm.recent.nikos')).toBeNull();
  });

  it('change nothing when only the letters\' case changed', () => {
    storage.setItem('crm.recent.eleni', list);
    recent.renameRecent('eleni', 'Eleni');
    expect(storage.getItem('crm.recent.eleni')).toBe(list);
  });
});
