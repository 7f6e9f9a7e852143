import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TDocument, TDocumentRow } from '@crm/contract';
import { api } from '../../../lib/api.ts';
import type { ChangeKeys } from '../../../lib/change-key.ts';
import { readSavedList, type SavedList } from '../../../lib/list-state.ts';
import { postWithProgress } from '../../../lib/upload.ts';

export const documentKeys = {
  all: ['document'] as const,
  lists: ['document', 'list'] as const,
  one: (id: number) => ['document', 'one', id] as const,
};

export const documentsQuery = (searchStr: string, page: { perPage: number; currentPage: number }) =>
  queryOptions({
    queryKey: [...documentKeys.lists, searchStr, page],
    queryFn: ({ signal }) => api<{ items: TDocumentRow[]; totalRows: number }>('/api/Documents', { query: { searchStr: searchStr || undefined, ...page }, signal, background: true }),
    placeholderData: keepPreviousData,
  });

export const documentQuery = (id: number) =>
  queryOptions({ queryKey: documentKeys.one(id), queryFn: ({ signal }) => api<TDocument>(`/api/Documents/edit/${id}`, { signal }), staleTime: 0, meta: { handlesErrors: true } });

export const deleteDocument = (id: number) => api<unknown>(`/api/Documents/${id}`, { method: 'DELETE' });

export type TDocumentSave = { id?: number; version?: number; name: string; description: string; filesRemoved: number[]; files: File[] };

/**
 * POST /api/Documents/update as one multipart form: the fields and the new files together, with
 * upload progress (lib/upload.ts). The change key makes Save pressed again after a lost answer get
 * the document stored the first time, not a second one.
 */
export function saveDocument(d: TDocumentSave, onProgress: (percent: number) => void, changeKeys?: ChangeKeys): Promise<TDocument> {
  const body = new FormData();
  if (d.id != null) body.append('id', String(d.id));
  if (d.version != null) body.append('version', String(d.version));
  body.append('name', d.name);
  body.append('description', d.description);
  body.append('filesRemoved', d.filesRemoved.join(','));
  for (const f of d.files) body.append('files', f, f.name);
  return postWithProgress<TDocument>('/api/Documents/update', body, onProgress, changeKeys?.keyFor(body));
}

/** The list's cookie, read by its screen and by its route's loader (which asks for the first page, unsearched, while the screen's code loads). */
export const DOCUMENT_LIST: SavedList = { list: 'DocumentList', defaults: { sortBy: 'name', sortDir: 'asc' } };
export const documentsFirstPage = () => {
  const { perPage, currentPage } = readSavedList(DOCUMENT_LIST);
  return documentsQuery('', { perPage, currentPage });
};
