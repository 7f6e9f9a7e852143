import type { TImportKind, TImportRequest, TImportRunRequest } from '@crm/contract';
import { IMPORT } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';
import { saveBlob } from '../../../lib/download.ts';

/** POST /api/import/upload: the file read on the server, its headers and the proposed mapping. */
export function uploadImportFile(kind: TImportKind, file: File) {
  const form = new FormData();
  form.append('kind', kind);
  form.append('file', file, file.name);
  return call(IMPORT.calls.upload, {}, { form });
}

export const previewImport = (body: TImportRequest) => call(IMPORT.calls.preview, { body });
export const runImport = (body: TImportRunRequest) => call(IMPORT.calls.run, { body });

/** The template with the headers in the reader's language. */
export async function downloadImportTemplate(kind: TImportKind, fileName: string) {
  saveBlob(await call(IMPORT.calls.template, { query: { kind } }, { blob: true }), fileName);
}
