import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TObjectAccount, TObjectReservationItem, TObjectRow, TObjectSelectLists, TObjectViewingItem, TSelectOption, TFileListAnswer } from '@crm/contract';
import { LinkKind } from '@crm/contract/constants';
import { OBJECT_PAGE_SIZES } from '@crm/contract/object-fields';
import { api } from '../../../lib/api.ts';
import { readCookieState } from '../../../lib/list-state.ts';

export type TPage<T> = { items: T[]; totalRows: number };
type TRef = { id: number; descr: string };

/**
 * The object as answered (ZRealtyObject): the described fields by name (OBJECT_FIELDS), plus the
 * record's own properties typed here (the contract's schema is built from the description, so its
 * inferred type cannot name them).
 */
export type TRealtyObject = Record<string, unknown> & {
  id: number;
  referenceNumber: string;
  type: string;
  location: string;
  title?: string | null;
  createdOn: string;
  createdBy: string | null;
  modifiedOn: string;
  modifiedBy: string | null;
  lastUpdate: string | null;
  published: boolean;
  publishError: string | null;
  publishRequested?: boolean;
  rented: boolean;
  sold: boolean;
  hasKey: boolean;
  images: { id: number; name: string; width: number | null; height: number | null }[];
  version: number;
};

/** GET /api/object/view/{idOrRef} */
export type TObjectView = TRealtyObject & {
  accounts: TRef[];
  leads: TRef[];
  viewings: TObjectViewingItem[];
  deals: TRef[];
  reservations: TObjectReservationItem[];
  contacts: TObjectAccount[];
  objectSelectLists: TObjectSelectLists;
  objectAccountRelationSelectList: TSelectOption[];
};

/** GET /api/object/edit/{id} */
export type TObjectEdit = {
  object: TRealtyObject;
  objectSelectLists: TObjectSelectLists;
  objectAccounts: TObjectAccount[];
  objectAccountRelationSelectList: TSelectOption[];
};

export type TObjectListState = { perPage: number; currentPage: number; sortBy: string; sortDir: 'asc' | 'desc' };

import { objectKeys } from '../../../lib/query-keys.ts';

export { objectKeys };

/** The list's paging in the spec's cookies (ObjectList.perPage, ObjectList.currentPage), the sort in ObjectList.sort. */
export const OBJECT_LIST_COOKIES = { perPage: 'ObjectList.perPage', currentPage: 'ObjectList.currentPage', sort: 'ObjectList.sort' } as const;
export const OBJECT_LIST_DEFAULTS = { perPage: 20, currentPage: 1, sort: { sortBy: 'createdOn', sortDir: 'desc' as 'asc' | 'desc' } };

/** The list's state from its three cookies' values, an unknown page size or page number falling back to the defaults. */
export function objectListState(perPage: number, currentPage: number, sort: { sortBy: string; sortDir: 'asc' | 'desc' }): TObjectListState {
  return {
    perPage: (OBJECT_PAGE_SIZES as readonly number[]).includes(perPage) ? perPage : OBJECT_LIST_DEFAULTS.perPage,
    currentPage: Number.isInteger(currentPage) && currentPage > 0 ? currentPage : 1,
    ...sort,
  };
}

/** POST /api/object: the paged, sorted list. */
export const objectListQuery = (q: TObjectListState) =>
  queryOptions({
    queryKey: objectKeys.list(q),
    queryFn: ({ signal }) => api<TPage<TObjectRow>>('/api/object', { body: q, signal, background: true }),
    placeholderData: keepPreviousData,
  });

/** An object's address part: its numeric id, or `ref` and its reference number. */
export const validIdOrRef = (s: string) => /^\d{1,10}$/.test(s) || /^ref[0-9A-Za-z]{1,20}$/i.test(s);

export const objectViewQuery = (idOrRef: string) =>
  queryOptions({
    queryKey: objectKeys.view(idOrRef),
    queryFn: ({ signal }) => api<TObjectView>(`/api/object/view/${encodeURIComponent(idOrRef)}`, { signal }),
    meta: { handlesErrors: true },
  });

/** The edit form always starts from the current record (no cached copy), so its version is fresh. */
export const objectEditQuery = (id: number) =>
  queryOptions({
    queryKey: objectKeys.edit(id),
    queryFn: ({ signal }) => api<TObjectEdit>(`/api/object/edit/${id}`, { signal }),
    staleTime: 0,
    meta: { handlesErrors: true },
  });

/**
 * GET /api/object/add: a blank object with a new reference number (asked again with the same key,
 * the same one); with ownerId, that account is linked to it as its owner.
 */
export async function addObject(changeKey?: string, ownerId?: number): Promise<number> {
  const res = await api<{ id: number } | { object: { id: number } } | number>('/api/object/add', { changeKey, query: { ownerId } });
  if (typeof res === 'number') return res;
  return 'object' in res ? res.object.id : res.id;
}

/** POST /api/object/update: the changed fields, the id and the version they were based on. */
export async function updateObject(body: Record<string, unknown> & { id: number; version: number }, changeKey?: string): Promise<TRealtyObject> {
  const res = await api<TRealtyObject>('/api/object/update', { body, background: true, changeKey });
  // The answer is the object (or, as the edit call, { object }).
  const inner = res.object as TRealtyObject | undefined;
  return inner && typeof inner === 'object' && typeof inner.version === 'number' ? inner : res;
}

export const deleteObject = (id: number) => api<unknown>(`/api/object/${id}`, { method: 'DELETE' });
/** Objects this tab opened with Add: left without anything entered, they are discarded (see ObjectViewPage). */
export const justAddedObjects = new Set<number>();
export const discardObject = (id: number) => api<{ discarded: boolean }>('/api/object/discard', { body: { id }, background: true });

/** Object–account links (contacts, owners, tenants). */
export type TObjectAccountInput = Omit<TObjectAccount, 'account' | 'relationName'>;
export const addObjectAccount = (link: TObjectAccountInput) => api<unknown>('/api/objectAccount/add', { body: link });
/** Dates, price and payment day of a link; its key (object, account, relation) stays. */
export const updateObjectAccount = (link: TObjectAccountInput) => api<unknown>('/api/objectAccount/update', { body: link });
export const deleteObjectAccount = (link: { objectId: number; accountId: number; relation?: number }) =>
  api<unknown>('/api/objectAccount', { method: 'DELETE', body: link });

/** Photos: the object's files of type `image`, in their order (uploaded through /api/files, attached with setParent). */
export const objectPhotosQuery = (id: number) =>
  queryOptions({
    queryKey: objectKeys.photos(id),
    queryFn: ({ signal }) => api<TFileListAnswer>('/api/files', { query: { parentType: LinkKind.Object, parentId: id }, signal }),
  });
export const attachPhotos = (id: number, fileIds: number[]) =>
  api<TFileListAnswer>('/api/files/setParent', { body: { entityType: LinkKind.Object, id, fileNames: fileIds, type: 'image' } });
export const reorderPhotos = (ids: number[]) => api<TFileListAnswer>('/api/files/reorder', { body: { ids } });
export const deletePhoto = (id: number) => api<unknown>(`/api/files/${id}`, { method: 'DELETE' });

/** The list's first page as its cookies stand: its route's loader asks for it while the screen's code loads. */
export const objectsFirstPage = () =>
  objectListQuery(
    objectListState(
      readCookieState(OBJECT_LIST_COOKIES.perPage, OBJECT_LIST_DEFAULTS.perPage),
      readCookieState(OBJECT_LIST_COOKIES.currentPage, OBJECT_LIST_DEFAULTS.currentPage),
      readCookieState(OBJECT_LIST_COOKIES.sort, OBJECT_LIST_DEFAULTS.sort),
    ),
  );
