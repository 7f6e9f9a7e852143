import { describe, expect, it } from 'vitest';
import { STATEMENT_COLUMNS, TRANSACTION_FIELDS, TRANSACTION_GROUPS, TRANSACTION_LISTS, TRANSACTION_TYPES, listValuesOf, statementHeadKey, transactionLabelKey, type TTransactionListName } from '@crm/contract';
import { itLabelsEvery, localeTexts } from './locale-texts.testing.ts';

/** The income and expense forms, the statement and its file label every described field, group, list value and column from the texts. */
describe('transaction texts', () => {
  const { en, el, ru } = localeTexts();
  const lists = Object.keys(TRANSACTION_LISTS) as TTransactionListName[];
  const keys = [
    ...TRANSACTION_FIELDS.map((d) => transactionLabelKey(d.name)),
    ...TRANSACTION_GROUPS.map((g) => `payments.group.${g}`),
    ...lists.flatMap((l) => TRANSACTION_TYPES.flatMap((k) => listValuesOf(l, k).map((v) => TRANSACTION_LISTS[l].textKey(v)))),
    ...STATEMENT_COLUMNS.map(statementHeadKey),
    'fields.timeOfDay',
  ];
  itLabelsEvery('transaction field, group, list value and statement column', keys);
  it('writes Greek and Russian labels, not English ones', () => {
    expect(keys.filter((k) => el[k] === en[k] || ru[k] === en[k])).toEqual([]);
  });
});
