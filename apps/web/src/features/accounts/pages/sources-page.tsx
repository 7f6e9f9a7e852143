import { Button, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TSourceRow } from '@crm/contract';
import { DataTable, ListHeader, type DataTableColumn } from '../../../components/data-table.tsx';
import { IconPlus } from '../../../components/icons.ts';
import { useSavedList } from '../../../lib/list-state.ts';
import { SOURCE_LIST, sourcesQuery } from '../api/account-lists.ts';
import { nameColumn } from '../../../components/account-columns.tsx';

export function SourcesPage() {
  const { t } = useTranslation();
  const list = useSavedList(SOURCE_LIST);
  const q = useQuery(sourcesQuery(list[0]));
  const columns: DataTableColumn<TSourceRow>[] = [nameColumn(t), { accessor: 'companyType', title: t('accounts.ui.col.companyType'), sortable: true }];
  const add = (
    <Button component={Link} to="/Accounts/AddSource" leftSection={<IconPlus size={16} />} data-testid="sources-add">
      {t('accounts.ui.sources.add')}
    </Button>
  );
  return (
    <Stack gap="md">
      <ListHeader title={t('title.sources')} count={q.data?.totalRows} testId="sources">
        {add}
      </ListHeader>
      <DataTable
        testId="sources-table"
        list={list}
        records={q.data?.items}
        totalRows={q.data?.totalRows}
        fetching={q.isFetching}
        columns={columns}
        empty={{ text: t('accounts.ui.sources.empty'), action: add }}
      />
    </Stack>
  );
}
