import { Text } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TDocumentRow } from '@crm/contract';
import { DOCUMENT, href } from '@crm/contract/resources';
import { ListScreen } from '../../../kit/list-screen.tsx';
import { DOCUMENTS } from '../api/documents.ts';
import { DocumentLink } from '../components/document-link.tsx';
import { editColumn } from '../../../kit/edit-column.tsx';

/** /DocumentList: the agency's document forms, by name; each name opens its file. */
export function DocumentsPage() {
  const { t } = useTranslation();
  return (
    <ListScreen
      {...DOCUMENTS}
      fields={() => [{ kind: 'text', name: 'searchStr', label: t('documents.ui.search'), search: true, testId: 'documents-search', span: { base: 12, sm: 8, lg: 5 } }]}
      columns={() => [
        { accessor: 'name', title: t('documents.ui.col.name'), render: (r) => <DocumentLink doc={r} /> },
        {
          accessor: 'description',
          title: t('documents.ui.col.description'),
          render: (r) => (
            <Text size="sm" className="pre-line" lineClamp={3}>
              {r.description}
            </Text>
          ),
        },
        { accessor: 'files', title: t('documents.ui.col.files'), textAlign: 'right', render: (r) => r.files.length },
        editColumn<TDocumentRow>(t('documents.ui.col.edit'), (r) => href(DOCUMENT.screens.view, { id: r.id }, { edit: 1 }), (r) => t('documents.ui.editOne', { name: r.name }), 'document-edit-link'),
      ]}
    />
  );
}
