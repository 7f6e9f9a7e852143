import type { TImportKind, TImportPreviewAnswer, TImportRequest, TImportRunAnswer, TImportRunRequest, TImportUploadAnswer } from '@crm/contract';
import { api } from '../../../lib/api.ts';
import { saveBlob } from '../../../lib/download.ts';

/** POST /api/import/upload: the file read on the server, its headers and the proposed mapping. */
export function uploadImportFile(kind: TImportKind, file: File) {
  const body = new FormData();
  body.append('kind', kind);
  body.append('file', file, file.name);
  return api<TImportUploadAnswer>('/api/import/upload', { body });
}

export const previewImport = (body: TImportRequest) => api<TImportPreviewAnswer>('/api/import/preview', { body });
export const runImport = (body: TImportRunRequest) => api<TImportRunAnswer>('/api/import/run', { body });

/** The template with the headers in the reader's language. */
export async function downloadImportTemplate(kind: TImportKind, fileName: string) {
  saveBlob(await api<Blob>('/api/import/template', { blob: true, query: { kind } }), fileName);
}
