import { queryOptions } from '@tanstack/react-query';
import type { TAccount, TAccountAdd, TAccountUpdate, TSelectOption } from '@crm/contract';
import { api } from '../../../lib/api.ts';
import { saveBlob } from '../../../lib/download.ts';

/** GET /api/account/edit/{id}: the account and the select lists of its edit form. */
export type TAccountEdit = {
  dto: TAccount;
  selectLists: { roles: TSelectOption[]; branches: TSelectOption[]; sources: TSelectOption[]; services: TSelectOption[] };
};

export const accountKeys = {
  all: ['account'] as const,
  view: (id: number) => ['account', 'view', id] as const,
  edit: (id: number) => ['account', 'edit', id] as const,
};

export const getAccountView = (id: number, signal?: AbortSignal) => api<TAccount>(`/api/account/view/${id}`, { signal });

export const accountViewQuery = (id: number) =>
  queryOptions({ queryKey: accountKeys.view(id), queryFn: ({ signal }) => getAccountView(id, signal), meta: { handlesErrors: true } });

/** The edit form always starts from the current record (no cached copy), so its version is fresh. */
export const accountEditQuery = (id: number) =>
  queryOptions({
    queryKey: accountKeys.edit(id),
    queryFn: ({ signal }) => api<TAccountEdit>(`/api/account/edit/${id}`, { signal }),
    staleTime: 0,
    meta: { handlesErrors: true },
  });

/** POST /api/account/add: answers the new account's id. */
/** Adds an account; `changeKey` makes the same form sent again (a double click, Save after a lost answer) the same account. */
export async function addAccount(body: TAccountAdd, changeKey?: string): Promise<number> {
  const res = await api<{ id: number } | number>('/api/account/add', { body, changeKey });
  return typeof res === 'number' ? res : res.id;
}

export const updateAccount = (body: TAccountUpdate, changeKey?: string) => api<TAccount>('/api/account/update', { body, background: true, changeKey });
/** POST /api/account/erase/{id}: the person's data erased (GDPR); answers the account as it now is. */
export const erasePersonalData = (id: number, version: number) => api<TAccount>(`/api/account/erase/${id}`, { body: { version } });

/** GET /api/account/personal-data/{id}: everything held about the person, saved as one workbook. */
export async function downloadPersonalData(id: number) {
  const blob = await api<Blob>(`/api/account/personal-data/${id}`, { blob: true });
  saveBlob(blob, `Personal-data-${id}.xlsx`);
}

export const deleteAccount = (id: number) => api<unknown>(`/api/account/${id}`, { method: 'DELETE' });
export const mergeAccounts = (body: { account: TAccountUpdate; duplicateId: number }) => api<unknown>('/api/account/merge', { body });


