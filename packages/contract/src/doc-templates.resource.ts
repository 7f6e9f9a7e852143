import { calls } from './call.ts';
import type { DOC_TEMPLATE_API } from './doc-templates.ts';

/**
 * The agency's document templates (issue 47, decision 084): their texts per language (list, edit,
 * back to the default), and a document made from a mandate, a deal or a property, as a PDF download
 * or stored in the record's files.
 */
export const DOC_TEMPLATE = {
  calls: calls<typeof DOC_TEMPLATE_API>({
    list: 'GET /api/DocTemplate',
    update: 'POST /api/DocTemplate/update',
    reset: 'POST /api/DocTemplate/reset',
    pdf: 'GET /api/DocTemplate/pdf/:source/:id',
    save: 'POST /api/DocTemplate/save',
  }),
  screens: {
    templates: '/Settings/DocumentTemplates',
  },
} as const;
