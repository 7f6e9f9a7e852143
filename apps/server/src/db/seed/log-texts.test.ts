import { describe, expect, it } from 'vitest';
import { LOG_MESSAGES } from '@crm/contract';
import { readLocaleFiles } from './index.ts';

/** The action log and the home page's recent changes show what the server wrote in the reader's language. */
describe('action log texts', () => {
  const cultures = readLocaleFiles();
  // With the messages that carry data: a transaction's amount, the deal that won a lead.
  const keys = [...LOG_MESSAGES.map((m) => `actionLog.message.${m}`), 'actionLog.message.income', 'actionLog.message.expense', 'actionLog.message.won'];
  it.each(cultures.map((c) => [c.culture, c.texts] as const))('has a text for every message the server writes in %s', (_culture, texts) => {
    expect(keys.filter((k) => !texts[k]?.trim())).toEqual([]);
  });
});
