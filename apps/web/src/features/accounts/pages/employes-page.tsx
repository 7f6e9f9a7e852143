import { Badge, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { isOfficeAdmin, useSession } from '../../../lib/session.ts';
import { EMPLOYES } from '../api/account-lists.ts';
import { AccountList } from '../components/account-list.tsx';
import { nameColumn, phoneColumn } from '../../../components/account-columns.tsx';
import { branchText, roleText } from '../components/labels.ts';

/** /Employes: the agency's staff, their role, branch and sign-in. */
export function EmployesPage() {
  const { t } = useTranslation();
  // Employee accounts (whose e-mail becomes a sign-in) are added by office admins.
  const officeAdmin = isOfficeAdmin(useSession());
  return (
    <AccountList
      {...EMPLOYES}
      addTo={officeAdmin ? undefined : false}
      columns={() => [
        nameColumn(t), phoneColumn(t),
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
      ]}
    />
  );
}
