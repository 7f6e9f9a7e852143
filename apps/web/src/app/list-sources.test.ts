import { describe, expect, it } from 'vitest';
import { CookieJar } from '../lib/cookie-jar.testing.ts';

const jar = new CookieJar();
Object.assign(globalThis, { document: jar, window: { addEventListener() {}, removeEventListener() {} } });
const keep = (name: string, value: unknown) => (jar.cookie = `${name}=${encodeURIComponent(JSON.stringify(value))}; path=/`);
const nextTask = () => new Promise((r) => setTimeout(r, 0)); // cookies are read once per task

describe("a list's first page, as its route's loader asks for it while the screen's code loads", () => {
  it('is the page, the filter and the further columns its cookies keep (a column no longer offered left out)', async () => {
    const { firstPage } = await import('../kit/list-source.ts');
    const { DEALS, NO_DEAL_FILTER } = await import('../features/deals/api/deals.ts');
    const [one, two] = (await import('@crm/contract/deal-fields')).DEAL_MORE_COLUMNS;
    keep('DealList.list', { perPage: 50, currentPage: 3, sortBy: 'price', sortDir: 'asc' });
    keep('DealList.filter', { lastName: 'Papadopoulos' });
    keep('deals.more', [two, 'noSuchField', one]);
    await nextTask();
    expect(firstPage(DEALS).queryKey).toEqual(['deal', 'list', { ...NO_DEAL_FILTER, lastName: 'Papadopoulos' }, { perPage: 50, currentPage: 3, sortBy: 'price', sortDir: 'asc' }, [one, two]]);
  });

  it('opened from the results report, is the first page of what the report counted, in the page size and order kept', async () => {
    const { firstPage, openListWith } = await import('../kit/list-source.ts');
    const { LEADS, NO_LEAD_FILTER } = await import('../features/leads/api/leads.ts');
    keep('LeadList.list', { perPage: 10, currentPage: 4, sortBy: 'createdOn', sortDir: 'asc' });
    await nextTask();
    openListWith(LEADS, { ...NO_LEAD_FILTER, agentId: 7, agentText: 'Eleni', startDate: '2026-01-01', endDate: '2026-01-31' });
    await nextTask();
    const [, , filter, page] = firstPage(LEADS).queryKey as unknown[];
    expect(filter).toEqual({ ...NO_LEAD_FILTER, agentId: 7, agentText: 'Eleni', startDate: '2026-01-01', endDate: '2026-01-31' });
    expect(page).toEqual({ perPage: 10, currentPage: 1, sortBy: 'createdOn', sortDir: 'asc' });
  });

  it('is not opened with a filter where its screen keeps the filter in cookies of its own shape (it would open as it was)', async () => {
    const { openListWith } = await import('../kit/list-source.ts');
    const { KEYS } = await import('../features/objects/api/object-keys.ts');
    expect(() => openListWith(KEYS, {} as never)).toThrow('keeps its filter in cookies of its own');
  });
});
