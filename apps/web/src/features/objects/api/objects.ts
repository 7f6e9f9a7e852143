import { recordQuery } from '../../../kit/record-query.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TObjectAccount } from '@crm/contract';
import { LinkKind } from '@crm/contract/constants';
import { OBJECT_PAGE_SIZES } from '@crm/contract/object-fields';
import { FILE, OBJECT, OBJECT_ACCOUNT, type AnswerOf, type RequestOf } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';
import { readCookieState } from '../../../lib/list-state.ts';
import { listSource } from '../../../kit/list-source.ts';

/** The object as answered: its own properties typed, the described fields (OBJECT_FIELDS) by name. */
export type TRealtyObject = AnswerOf<typeof OBJECT.calls.update>;
/** GET /api/object/view/{idOrRef} */
export type TObjectView = AnswerOf<typeof OBJECT.calls.view>;
/** GET /api/object/edit/{id} */
export type TObjectEdit = AnswerOf<typeof OBJECT.calls.edit>;
/** POST /api/object: a page of the list. */
export type TObjectListAnswer = AnswerOf<typeof OBJECT.calls.list>;

export type TObjectListState = { perPage: number; currentPage: number; sortBy: string; sortDir: 'asc' | 'desc' };
type ObjectListBody = RequestOf<typeof OBJECT.calls.list>['body'];

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
    // The sort as kept (a cookie's sort as it was saved: the server answers one it does not know with a 400, as it always has).
    queryFn: ({ signal }) => call(OBJECT.calls.list, { body: { ...q, sortBy: q.sortBy as ObjectListBody['sortBy'] } }, { signal, background: true }),
    placeholderData: keepPreviousData,
  });

/** An object's address part: its numeric id, or `ref` and its reference number. */
export const validIdOrRef = (s: string) => /^\d{1,10}$/.test(s) || /^ref[0-9A-Za-z]{1,20}$/i.test(s);

export const objectViewQuery = (idOrRef: string) =>
  queryOptions({
    queryKey: objectKeys.view(idOrRef),
    queryFn: ({ signal }) => call(OBJECT.calls.view, { params: { idOrRef } }, { signal }),
    meta: { handlesErrors: true },
  });

/** The edit form always starts from the current record (no cached copy), so its version is fresh. */
export const objectEditQuery = (id: number) =>
  recordQuery(objectKeys.edit(id), OBJECT.calls.edit, id);

/**
 * GET /api/object/add: a blank object with a new reference number (asked again with the same key,
 * the same one); with ownerId, that account is linked to it as its owner.
 */
export async function addObject(changeKey?: string, ownerId?: number): Promise<number> {
  return (await call(OBJECT.calls.add, { query: { ownerId } }, { changeKey })).id;
}

/** POST /api/object/update: the changed fields, the id and the version they were based on. */
export const updateObject = (body: Record<string, unknown> & { id: number; version: number }, changeKey?: string): Promise<TRealtyObject> =>
  call(OBJECT.calls.update, { body }, { background: true, changeKey });

export const deleteObject = (id: number) => call(OBJECT.calls.remove, { params: { id } });
/** Objects this tab opened with Add: left without anything entered, they are discarded (see ObjectViewPage). */
export const justAddedObjects = new Set<number>();
export const discardObject = (id: number) => call(OBJECT.calls.discard, { body: { id } }, { background: true });

/** Object–account links (contacts, owners, tenants). */
export type TObjectAccountInput = Omit<TObjectAccount, 'account' | 'relationName'>;
export const addObjectAccount = (link: TObjectAccountInput) => call(OBJECT_ACCOUNT.calls.add, { body: link });
/** Dates, price and payment day of a link; its key (object, account, relation) stays. */
export const updateObjectAccount = (link: TObjectAccountInput) => call(OBJECT_ACCOUNT.calls.update, { body: link });
export const deleteObjectAccount = (link: RequestOf<typeof OBJECT_ACCOUNT.calls.remove>['body']) => call(OBJECT_ACCOUNT.calls.remove, { body: link });

/** Photos: the object's files of type `image`, in their order (uploaded through /api/files, attached with setParent). */
export const objectPhotosQuery = (id: number) =>
  queryOptions({
    queryKey: objectKeys.photos(id),
    queryFn: ({ signal }) => call(FILE.calls.list, { query: { parentType: LinkKind.Object, parentId: id } }, { signal }),
  });
export const attachPhotos = (id: number, fileIds: number[]) =>
  call(FILE.calls.setParent, { body: { entityType: LinkKind.Object, id, fileNames: fileIds, type: 'image' } });
export const reorderPhotos = (ids: number[]) => call(FILE.calls.reorder, { body: { ids } });
export const deletePhoto = (id: number) => call(FILE.calls.remove, { params: { systemName: String(id) } });

/** The properties list: its page and sort each in its cookie (the screen holds them), its call and its first page, for its screen and its route's loader. */
export const OBJECTS = listSource({
  list: OBJECT.list,
  pageSizes: OBJECT_PAGE_SIZES,
  query: (_f: Record<string, never>, page) => objectListQuery(page),
  first: () =>
    objectListQuery(
      objectListState(
        readCookieState(OBJECT_LIST_COOKIES.perPage, OBJECT_LIST_DEFAULTS.perPage),
        readCookieState(OBJECT_LIST_COOKIES.currentPage, OBJECT_LIST_DEFAULTS.currentPage),
        readCookieState(OBJECT_LIST_COOKIES.sort, OBJECT_LIST_DEFAULTS.sort),
      ),
    ),
});
