import type { TImportKind } from '@crm/contract';
import type { Client } from './harness.ts';

type Upload = { token: string; mapping: string[] };

/** A CSV as an office's spreadsheet writes one: ";" between cells, CRLF between rows, UTF-8. */
export const csv = (rows: string[][]) => Buffer.from(rows.map((r) => r.join(';')).join('\r\n'), 'utf8');

/** The /Import screen's three calls for one kind, made by `admin` (duplicates linked, as its default). */
export function importCalls(kind: TImportKind, admin: Client) {
  return {
    send: (name: string, data: Buffer, as: Client = admin, lang = 'en') =>
      as.upload('/api/import/upload', [{ field: 'kind', value: kind }, { field: 'file', name, data }], { lang }),
    preview: async (up: Upload, lang = 'en') => (await admin.post('/api/import/preview', { token: up.token, mapping: up.mapping, duplicates: 'link' }, { lang })).json(),
    run: (up: Upload, skipErrors = false) => admin.post('/api/import/run', { token: up.token, mapping: up.mapping, duplicates: 'link', skipErrors }),
  };
}
