import { Button, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TOwnerRow } from '@crm/contract';
import { DataTable, ListHeader, type DataTableColumn } from '../../../components/data-table.tsx';
import { IconPlus } from '../../../components/icons.ts';
import { useSavedList } from '../../../lib/list-state.ts';
import { OWNER_LIST, ownersQuery } from '../api/account-lists.ts';
import { createdColumns, modifiedColumns, nameColumn, objectsColumn } from '../../../components/account-columns.tsx';

export function OwnersPage() {
  const { t } = useTranslation();
  const list = useSavedList(OWNER_LIST);
  const q = useQuery(ownersQuery(list[0]));
  const columns: DataTableColumn<TOwnerRow>[] = [...createdColumns(t), nameColumn(t), objectsColumn(t), ...modifiedColumns(t)];
  const add = (
    <Button component={Link} to="/Accounts/AddOwner" leftSection={<IconPlus size={16} />} data-testid="owners-add">
      {t('accounts.ui.owners.add')}
    </Button>
  );
  return (
    <Stack gap="md">
      <ListHeader title={t('title.owners')} count={q.data?.totalRows} testId="owners">
        {add}
      </ListHeader>
      <DataTable
        testId="owners-table"
        list={list}
        records={q.data?.items}
        totalRows={q.data?.totalRows}
        fetching={q.isFetching}
        columns={columns}
        empty={{ text: t('accounts.ui.owners.empty'), action: add }}
      />
    </Stack>
  );
}
