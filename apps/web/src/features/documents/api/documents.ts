import { recordQuery } from '../../../kit/record-query.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { DOCUMENT, type AnswerOf } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';
import type { ListState } from '../../../lib/list-state.ts';
import { listSource } from '../../../kit/list-source.ts';
import { postWithProgress } from '../../../lib/upload.ts';

/** A document as its form reads it (GET /api/Documents/edit/{id}) and its save answers. */
export type TDocument = AnswerOf<typeof DOCUMENT.calls.edit>;
/** The list's answer (GET /api/Documents). */
export type TDocumentListAnswer = AnswerOf<typeof DOCUMENT.calls.list>;

export const documentKeys = {
  all: ['document'] as const,
  lists: ['document', 'list'] as const,
  one: (id: number) => ['document', 'one', id] as const,
};

/** The list's filter: a name or a description's words. */
export type TDocumentFilter = { searchStr: string };

export const documentsQuery = (f: TDocumentFilter, page: Pick<ListState, 'perPage' | 'currentPage'>) => {
  const searchStr = f.searchStr.trim();
  return queryOptions({
    queryKey: [...documentKeys.lists, searchStr, { perPage: page.perPage, currentPage: page.currentPage }],
    queryFn: ({ signal }) => call(DOCUMENT.calls.list, { query: { searchStr: searchStr || undefined, perPage: page.perPage, currentPage: page.currentPage } }, { signal, background: true }),
    placeholderData: keepPreviousData,
  });
};

export const documentQuery = (id: number) =>
  recordQuery(documentKeys.one(id), DOCUMENT.calls.edit, id);

export const deleteDocument = (id: number) => call(DOCUMENT.calls.remove, { params: { id } });

export type TDocumentSave = { id?: number; version?: number; name: string; description: string; filesRemoved: number[]; files: File[] };

/** POST /api/Documents/update's multipart form: the fields and the new files together. */
export function documentForm(d: TDocumentSave): FormData {
  const body = new FormData();
  if (d.id != null) body.append('id', String(d.id));
  if (d.version != null) body.append('version', String(d.version));
  body.append('name', d.name);
  body.append('description', d.description);
  body.append('filesRemoved', d.filesRemoved.join(','));
  for (const f of d.files) body.append('files', f, f.name);
  return body;
}

/**
 * Sends the document's form with upload progress (lib/upload.ts). The change key makes Save pressed
 * again after a lost answer get the document stored the first time, not a second one.
 */
export const saveDocument = (body: FormData, onProgress: (percent: number) => void, changeKey: string) =>
  postWithProgress(DOCUMENT.calls.update, body, onProgress, changeKey);

/** The documents list: its cookies, its search box and its call, for its screen and its route's loader. */
export const DOCUMENTS = listSource({
  list: DOCUMENT.list,
  saved: { list: { list: 'DocumentList', defaults: { sortBy: 'name', sortDir: 'asc' } }, filter: { cookie: 'DocumentList.filter', initial: { searchStr: '' } } },
  debounced: ['searchStr'],
  query: documentsQuery,
});
