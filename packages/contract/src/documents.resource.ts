import { calls, type ListDeclaration } from './call.ts';
import type { DOCUMENT_API } from './documents.ts';

/** The document forms library (spec: /api/Documents/...): the list, one document, its update (multipart), delete (decision 057). */
export const DOCUMENT = {
  calls: calls<typeof DOCUMENT_API>({
    list: 'GET /api/Documents',
    edit: 'GET /api/Documents/edit/:id',
    update: 'POST /api/Documents/update',
    remove: 'DELETE /api/Documents/:id',
  }),
  screens: {
    list: '/DocumentList',
    add: '/Document/Add',
    view: '/Document/:id',
  },
  list: {
    testId: 'documents',
    title: 'title.documents',
    empty: 'documents.ui.empty',
    noMatch: 'documents.ui.noMatch',
    add: { to: '/Document/Add', label: 'documents.ui.add', emptyTestId: 'documents-empty-add' },
  } satisfies ListDeclaration,
} as const;
