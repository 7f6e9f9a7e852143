import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { startShippedTexts } from '../../lib/shipped-texts.testing.ts';

let toDraft: typeof import('./field-values.ts').toDraft;
let toWire: typeof import('./field-values.ts').toWire;

beforeAll(async () => {
  await startShippedTexts();
  ({ toDraft, toWire } = await import('./field-values.ts'));
});

describe("an income's or expense's amount box (field type money)", () => {
  it('posts what was typed as the exact decimal text, read as every number of the app', async () => {
    await i18next.changeLanguage('el');
    expect(toWire('money', '1.500')).toBe('1500.00');
    expect(toWire('money', '1.500,50')).toBe('1500.50');
    expect(toWire('money', ' 80,2 ')).toBe('80.20');
    await i18next.changeLanguage('en');
    expect(toWire('money', '1,500.50')).toBe('1500.50');
    expect(toWire('money', '999,999,999,999.99')).toBe('999999999999.99');
  });

  it('shows a stored amount in the reader\'s writing and posts it back unchanged', async () => {
    await i18next.changeLanguage('el');
    expect(toDraft('money', '1500.50')).toBe('1500,50');
    expect(toWire('money', toDraft('money', '1500.50'))).toBe('1500.50');
    await i18next.changeLanguage('ru');
    expect(toWire('money', toDraft('money', '123456789012.34'))).toBe('123456789012.34');
    await i18next.changeLanguage('en');
    expect(toWire('money', toDraft('money', '1500.50'))).toBe('1500.50');
  });

  it('sends text that is no amount as typed, for the server to say why, and nothing for an empty box', () => {
    expect(toWire('money', '1.5.5')).toBe('1.5.5');
    expect(toWire('money', '10,0055')).toBe('10,0055');
    expect(toWire('money', '  ')).toBeNull();
    expect(toWire('money', null)).toBeNull();
  });
});
