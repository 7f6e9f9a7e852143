import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { FILE, urlOf } from '@crm/contract/resources';
import { startShippedTextsSignedOut, texts } from './shipped-texts.testing.ts';

let notOurAnswer: typeof import('./api.ts').notOurAnswer;

beforeAll(async () => {
  await startShippedTextsSignedOut();
  ({ notOurAnswer } = await import('./api.ts'));
});

describe("an error answer that is not the server's own (a proxy's page)", () => {
  it("is said in the reader's words by its status, not as the proxy's English status text", async () => {
    await i18next.changeLanguage('el');
    const el = texts('el');
    expect(notOurAnswer(413)).toMatchObject({ status: 413, title: el['errors.tooLarge'], code: 'errors.tooLarge' });
    expect(notOurAnswer(502).title).toBe(el['errors.network']);
    expect(notOurAnswer(504).title).toBe(el['errors.network']);
    expect(notOurAnswer(500).title).toBe(el['errors.internal']);
    expect(notOurAnswer(404).title).toBe(el['errors.badRequest']);
    await i18next.changeLanguage('en');
  });
});

describe("a call's address (a file's link, a photo's src)", () => {
  it('is its declared path with its params encoded and the query string of the values given', () => {
    expect(urlOf(FILE.calls.getNamed, { params: { systemName: 'a1b2.pdf', name: 'Lease #2 (signed).pdf' } })).toBe('/api/files/a1b2.pdf/Lease%20%232%20(signed).pdf');
    expect(urlOf(FILE.calls.get, { params: { systemName: '42' }, query: { size: 'thumb' } })).toBe('/api/files/42?size=thumb');
    expect(urlOf(FILE.calls.get, { params: { systemName: '42' }, query: {} })).toBe('/api/files/42');
  });
});
