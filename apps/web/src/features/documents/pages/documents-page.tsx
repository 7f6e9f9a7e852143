import { ActionIcon, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TDocumentRow } from '@crm/contract';
import { SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';
import { DataTable, ListHeader, type DataTableColumn } from '../../../components/data-table.tsx';
import { isPreviewable } from '../../../components/file-links.tsx';
import { fileAnchor } from '../../../lib/download.ts';
import { IconPencil, IconPlus, IconSearch } from '../../../components/icons.ts';
import { useSavedList } from '../../../lib/list-state.ts';
import { DOCUMENT_LIST, documentsQuery } from '../api/documents.ts';

/**
 * The document's name as a link to its first file at its own address (the session's file cookie
 * opens it): pictures and PDFs in a new tab titled by the file's name, other types downloaded under it.
 */
export function DocumentLink({ doc }: { doc: Pick<TDocumentRow, 'id' | 'name' | 'link' | 'files'> }) {
  const first = doc.files[0];
  if (!doc.link || !first) return <Text size="sm">{doc.name}</Text>;
  return (
    <Anchor {...fileAnchor(doc.link, first.userName, isPreviewable(first.systemName, first.mime))} data-testid="document-link">
      {doc.name}
    </Anchor>
  );
}

/** /DocumentList: the agency's document forms, by name; each name opens its file. */
export function DocumentsPage() {
  const { t } = useTranslation();
  const list = useSavedList(DOCUMENT_LIST);
  const [text, setText] = useState('');
  const [searchStr] = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const q = useQuery(documentsQuery(searchStr, { perPage: list[0].perPage, currentPage: list[0].currentPage }));

  const columns: DataTableColumn<TDocumentRow>[] = [
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
        <ActionIcon component={Link} to={`/Document/${r.id}?edit=1`} variant="subtle" aria-label={t('documents.ui.editOne', { name: r.name })} data-testid="document-edit-link">
          <IconPencil size={16} />
        </ActionIcon>
      ),
    },
  ];
  const add = (testId: string) => (
    <Button component={Link} to="/Document/Add" leftSection={<IconPlus size={16} />} data-testid={testId}>
      {t('documents.ui.add')}
    </Button>
  );
  return (
    <Stack gap="md">
      <ListHeader title={t('title.documents')} count={q.data?.totalRows} testId="documents">
        {add('documents-add')}
      </ListHeader>
      <TextInput
        maw={420}
        leftSection={<IconSearch size={16} />}
        aria-label={t('documents.ui.search')}
        placeholder={t('documents.ui.search')}
        value={text}
        onChange={(e) => {
          setText(e.currentTarget.value);
          list[1]((s) => ({ ...s, currentPage: 1 }));
        }}
        data-testid="documents-search"
      />
      <DataTable
        testId="documents-table"
        list={list}
        records={q.data?.items}
        totalRows={q.data?.totalRows}
        fetching={q.isFetching}
        columns={columns}
        empty={searchStr ? { text: t('documents.ui.noMatch') } : { text: t('documents.ui.empty'), action: add('documents-empty-add') }}
      />
    </Stack>
  );
}
