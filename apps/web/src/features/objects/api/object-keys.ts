import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TObjectKey } from '@crm/contract';
import { api } from '../../../lib/api.ts';

export type TKeyListFilter = { referenceNumber: string; perPage: number; currentPage: number };
export type TKeyEdit = {
  id?: number | null;
  version?: number;
  objectId: number;
  accountId: number | null;
  received: string | null;
  givenAway: string | null;
  description: string | null;
};

/** The key form for a new key of a property; Save and Cancel come back to the property. */
export const addKeyPath = (objectId: number) => `/ObjectKeys/new?objectId=${objectId}`;

export const keyKeys = { all: ['objectKeys'] as const, edit: (id: number) => ['objectKeys', 'edit', id] as const };

/** GET /api/ObjectKeys: by reference-number prefix, paged. */
export const objectKeysQuery = (f: TKeyListFilter) =>
  queryOptions({
    queryKey: ['objectKeys', 'list', f],
    queryFn: ({ signal }) => api<{ items: TObjectKey[]; totalRows: number }>('/api/ObjectKeys', { query: { ...f }, signal, background: true }),
    placeholderData: keepPreviousData,
  });

/** GET /api/ObjectKeys/edit/{id}: always the current version (the form's save is guarded by it). */
export const objectKeyQuery = (id: number) =>
  queryOptions({
    queryKey: keyKeys.edit(id),
    queryFn: ({ signal }) => api<TObjectKey>(`/api/ObjectKeys/edit/${id}`, { signal }),
    staleTime: 0,
    meta: { handlesErrors: true },
  });

export const saveObjectKey = (body: TKeyEdit) => api<TObjectKey>('/api/ObjectKeys/edit', { body });
export const deleteObjectKey = (id: number) => api<unknown>(`/api/ObjectKeys/${id}`, { method: 'DELETE' });

/** GET /api/object/searchByRefNumOrTitle: a property by its number or title (the key's property). */
export const searchObjectsByRef = (searchStr: string, signal?: AbortSignal) =>
  api<{ items: { id: number; description: string; referenceNumber: string }[] }>('/api/object/searchByRefNumOrTitle', { query: { searchStr }, signal, background: true });
