import { calls } from './call.ts';
import type { IMPORT_API } from './imports.ts';

/** Owners and properties from a spreadsheet (decision 052): upload, preview, import, the template (decision 057). */
export const IMPORT = {
  calls: calls<typeof IMPORT_API>({
    upload: 'POST /api/import/upload',
    preview: 'POST /api/import/preview',
    run: 'POST /api/import/run',
    template: 'GET /api/import/template',
  }),
  screens: {
    import: '/Import',
  },
} as const;
