import { calls, recordCalls, type ListDeclaration } from './call.ts';
import type { DOCUMENT_API } from './documents.ts';

/** The document forms library (spec: /api/Documents/...): the list, one document, its update (multipart), delete (decision 057). */
export const DOCUMENT = {
  calls: calls<typeof DOCUMENT_API>({
    list: ['GET', '/api/Documents'],
    ...recordCalls('/api/Documents', ['edit', 'update', 'remove']),
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
