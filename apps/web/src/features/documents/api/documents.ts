import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TDocument, TDocumentRow, TProblem } from '@crm/contract';
import { ApiError, api } from '../../../lib/api.ts';
import { clearBanner } from '../../../lib/banner.ts';
import { currentCulture } from '../../../lib/i18n.ts';
import { readSavedList, type SavedList } from '../../../lib/list-state.ts';
import { sessionStore } from '../../../lib/session.ts';

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
 * upload progress (XMLHttpRequest: fetch cannot report it), the same token, language and errors
 * as the api client.
 */
export function saveDocument(d: TDocumentSave, onProgress: (percent: number) => void): Promise<TDocument> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/Documents/update');
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept-Language', currentCulture());
    const token = sessionStore.get()?.token;
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(Math.min(100, Math.round((e.loaded / e.total) * 100)));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        clearBanner();
        resolve(JSON.parse(xhr.responseText) as TDocument);
        return;
      }
      let problem: TProblem;
      try {
        problem = JSON.parse(xhr.responseText) as TProblem;
      } catch {
        problem = { status: xhr.status, title: xhr.statusText || `HTTP ${xhr.status}` };
      }
      // A 401: the api client's usual path (clear the session, go to /login).
      if (xhr.status === 401) void api('/api/authenticate/me').catch(() => {});
      reject(new ApiError(xhr.status, problem));
    };
    xhr.onerror = () => reject(new ApiError(0, { status: 0, title: '', code: 'errors.network' }));
    const body = new FormData();
    if (d.id != null) body.append('id', String(d.id));
    if (d.version != null) body.append('version', String(d.version));
    body.append('name', d.name);
    body.append('description', d.description);
    body.append('filesRemoved', d.filesRemoved.join(','));
    for (const f of d.files) body.append('files', f, f.name);
    xhr.send(body);
  });
}

/** The list's cookie, read by its screen and by its route's loader (which asks for the first page, unsearched, while the screen's code loads). */
export const DOCUMENT_LIST: SavedList = { list: 'DocumentList', defaults: { sortBy: 'name', sortDir: 'asc' } };
export const documentsFirstPage = () => {
  const { perPage, currentPage } = readSavedList(DOCUMENT_LIST);
  return documentsQuery('', { perPage, currentPage });
};
