import { ActionIcon, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import type { TDocumentRow } from '@crm/contract';
import { DOCUMENT, href } from '@crm/contract/resources';
import { IconPencil } from '../../../components/icons.ts';
import { ListScreen } from '../../../kit/list-screen.tsx';
import { DOCUMENT_FILTER, DOCUMENT_LIST, documentsQuery, type TDocumentFilter, type TDocumentListAnswer } from '../api/documents.ts';
import { DocumentLink } from '../components/document-link.tsx';

/** /DocumentList: the agency's document forms, by name; each name opens its file. */
export function DocumentsPage() {
  const { t } = useTranslation();
  return (
    <ListScreen<TDocumentRow, TDocumentFilter, TDocumentListAnswer>
      list={DOCUMENT.list}
      saved={{ list: DOCUMENT_LIST, filter: DOCUMENT_FILTER }}
      debounced={['searchStr']}
      query={documentsQuery}
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
        {
          accessor: 'edit',
          title: t('documents.ui.col.edit'),
          card: 'action',
          render: (r) => (
            <ActionIcon component={Link} to={href(DOCUMENT.screens.view, { id: r.id }, { edit: 1 })} variant="subtle" aria-label={t('documents.ui.editOne', { name: r.name })} data-testid="document-edit-link">
              <IconPencil size={16} />
            </ActionIcon>
          ),
        },
      ]}
    />
  );
}
