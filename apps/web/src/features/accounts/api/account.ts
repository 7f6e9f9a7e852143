import { recordQuery } from '../../../kit/record-query.ts';
import { queryOptions } from '@tanstack/react-query';
import type { TAccountAdd, TAccountUpdate } from '@crm/contract';
import { ACCOUNT, type AnswerOf } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';
import { saveBlob } from '../../../lib/download.ts';

/** GET /api/account/edit/{id}: the account and the select lists of its edit form. */
export type TAccountEdit = AnswerOf<typeof ACCOUNT.calls.edit>;

export const accountKeys = {
  all: ['account'] as const,
  view: (id: number) => ['account', 'view', id] as const,
  edit: (id: number) => ['account', 'edit', id] as const,
};

export const getAccountView = (id: number, signal?: AbortSignal) => call(ACCOUNT.calls.view, { params: { id } }, { signal });

export const accountViewQuery = (id: number) =>
  queryOptions({ queryKey: accountKeys.view(id), queryFn: ({ signal }) => getAccountView(id, signal), meta: { handlesErrors: true } });

/** The edit form always starts from the current record (no cached copy), so its version is fresh. */
export const accountEditQuery = (id: number) =>
  recordQuery(accountKeys.edit(id), ACCOUNT.calls.edit, id);

/** POST /api/account/add: answers the new account's id. */
/** Adds an account; `changeKey` makes the same form sent again (a double click, Save after a lost answer) the same account. */
export async function addAccount(body: TAccountAdd, changeKey?: string): Promise<number> {
  return (await call(ACCOUNT.calls.add, { body }, { changeKey })).id;
}

export const updateAccount = (body: TAccountUpdate, changeKey?: string) => call(ACCOUNT.calls.update, { body }, { background: true, changeKey });
/** POST /api/account/erase/{id}: the person's data erased (GDPR); answers the account as it now is. */
export const erasePersonalData = (id: number, version: number) => call(ACCOUNT.calls.erase, { params: { id }, body: { version } });

/** GET /api/account/personal-data/{id}: everything held about the person, saved as one workbook. */
export async function downloadPersonalData(id: number) {
  const blob = await call(ACCOUNT.calls.personalData, { params: { id } }, { blob: true });
  saveBlob(blob, `Personal-data-${id}.xlsx`);
}

export const deleteAccount = (id: number) => call(ACCOUNT.calls.remove, { params: { id } });
export const mergeAccounts = (body: { account: TAccountUpdate; duplicateId: number }) => call(ACCOUNT.calls.merge, { body });
