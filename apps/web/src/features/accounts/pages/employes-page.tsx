import { Badge, Button, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TEmployeRow } from '@crm/contract';
import { DataTable, ListHeader, type DataTableColumn } from '../../../components/data-table.tsx';
import { IconPlus } from '../../../components/icons.ts';
import { useSavedList } from '../../../lib/list-state.ts';
import { isOfficeAdmin, useSession } from '../../../lib/session.ts';
import { EMPLOYE_LIST, employesQuery } from '../api/account-lists.ts';
import { nameColumn } from '../../../components/account-columns.tsx';
import { branchText, roleText } from '../components/labels.ts';

export function EmployesPage() {
  const { t } = useTranslation();
  const officeAdmin = isOfficeAdmin(useSession());
  const list = useSavedList(EMPLOYE_LIST);
  const q = useQuery(employesQuery(list[0]));
  const columns: DataTableColumn<TEmployeRow>[] = [
    nameColumn(t),
    { accessor: 'role', title: t('accounts.ui.col.role'), sortable: true, render: (r) => roleText(t, r.role) },
    { accessor: 'branchId', title: t('accounts.ui.col.branch'), render: (r) => branchText(t, r.branchId) },
    {
      accessor: 'signIn',
      title: t('accounts.ui.col.signIn'),
      render: (r) =>
        r.signIn ? (
          <Text size="sm">{r.signIn}</Text>
        ) : (
          <Badge variant="light" color="gray" size="sm">
            {t('accounts.ui.employe.noSignIn')}
          </Badge>
        ),
    },
  ];
  // Employee accounts (whose e-mail becomes a sign-in) are added by office admins.
  const add = officeAdmin && (
    <Button component={Link} to="/Accounts/AddEmploye" leftSection={<IconPlus size={16} />} data-testid="employes-add">
      {t('accounts.ui.employes.add')}
    </Button>
  );
  return (
    <Stack gap="md">
      <ListHeader title={t('title.employes')} count={q.data?.totalRows} testId="employes">
        {add}
      </ListHeader>
      <DataTable
        testId="employes-table"
        list={list}
        records={q.data?.items}
        totalRows={q.data?.totalRows}
        fetching={q.isFetching}
        columns={columns}
        empty={{ text: t('accounts.ui.employes.empty'), action: add }}
      />
    </Stack>
  );
}
