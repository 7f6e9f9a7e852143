import { calls } from './call.ts';
import type { FILE_API } from './files.ts';

/**
 * Files (spec: /api/files...): upload, a record's files, a file (by its stored name, or with its own
 * name as the address's last part), remove, attach to a record, reorder (decision 057). Shown inside
 * records: no screen of their own.
 */
export const FILE = {
  calls: calls<typeof FILE_API>({
    upload: 'POST /api/files',
    list: 'GET /api/files',
    get: 'GET /api/files/:systemName',
    getNamed: 'GET /api/files/:systemName/:name',
    remove: 'DELETE /api/files/:systemName',
    setParent: 'POST /api/files/setParent',
    reorder: 'POST /api/files/reorder',
  }),
  screens: {},
} as const;
