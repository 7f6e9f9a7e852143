import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TEmployeRow } from '@crm/contract';
import { ListScreen } from '../../../kit/list-screen.tsx';
import { isOfficeAdmin, useSession } from '../../../lib/session.ts';
import { EMPLOYE_LIST, employesQuery } from '../api/account-lists.ts';
import { nameColumn } from '../../../components/account-columns.tsx';
import { branchText, roleText } from '../components/labels.ts';
import { ACCOUNT, type AnswerOf } from '@crm/contract/resources';

/** /Employes: the agency's staff, their role, branch and sign-in. */
export function EmployesPage() {
  const { t } = useTranslation();
  // Employee accounts (whose e-mail becomes a sign-in) are added by office admins.
  const officeAdmin = isOfficeAdmin(useSession());
  return (
    <ListScreen<TEmployeRow, Record<string, never>, AnswerOf<typeof ACCOUNT.calls.employes>>
      testId="employes"
      title={t('title.employes')}
      saved={{ list: EMPLOYE_LIST }}
      query={(_f, page) => employesQuery(page)}
      add={officeAdmin ? { to: '/Accounts/AddEmploye', label: t('accounts.ui.employes.add') } : undefined}
      empty={{ none: t('accounts.ui.employes.empty'), noMatch: t('accounts.ui.employes.empty') }}
      columns={() => [
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
      ]}
    />
  );
}
