import { Badge, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TEmployeRow } from '@crm/contract';
import { ListScreen } from '../../../kit/list-screen.tsx';
import { isOfficeAdmin, useSession } from '../../../lib/session.ts';
import { EMPLOYE_LIST, EMPLOYE_SEARCH, employesQuery, type TSearchFilter } from '../api/account-lists.ts';
import { noMatchOf, searchField } from '../components/search-field.ts';
import { nameColumn, phoneColumn } from '../../../components/account-columns.tsx';
import { branchText, roleText } from '../components/labels.ts';
import { ACCOUNT, type AnswerOf } from '@crm/contract/resources';

/** /Employes: the agency's staff, their role, branch and sign-in. */
export function EmployesPage() {
  const { t } = useTranslation();
  // Employee accounts (whose e-mail becomes a sign-in) are added by office admins.
  const officeAdmin = isOfficeAdmin(useSession());
  return (
    <ListScreen<TEmployeRow, TSearchFilter, AnswerOf<typeof ACCOUNT.calls.employes>>
      testId="employes"
      title={t('title.employes')}
      saved={{ list: EMPLOYE_LIST, filter: EMPLOYE_SEARCH }}
      debounced={['search']}
      fields={() => [searchField(t, 'employes')]}
      query={employesQuery}
      add={officeAdmin ? { to: '/Accounts/AddEmploye', label: t('accounts.ui.employes.add') } : undefined}
      empty={{ none: t('accounts.ui.employes.empty'), noMatch: noMatchOf(t) }}
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
