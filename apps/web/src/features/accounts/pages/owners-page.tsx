import { useTranslation } from 'react-i18next';
import type { TOwnerRow } from '@crm/contract';
import { ListScreen } from '../../../kit/list-screen.tsx';
import { OWNER_LIST, ownersQuery } from '../api/account-lists.ts';
import { createdColumns, modifiedColumns, nameColumn, objectsColumn } from '../../../components/account-columns.tsx';
import { ACCOUNT, type AnswerOf } from '@crm/contract/resources';

/** /Owners: the owners, newest first. */
export function OwnersPage() {
  const { t } = useTranslation();
  return (
    <ListScreen<TOwnerRow, Record<string, never>, AnswerOf<typeof ACCOUNT.calls.owners>>
      testId="owners"
      title={t('title.owners')}
      saved={{ list: OWNER_LIST }}
      query={(_f, page) => ownersQuery(page)}
      add={{ to: '/Accounts/AddOwner', label: t('accounts.ui.owners.add') }}
      empty={{ none: t('accounts.ui.owners.empty'), noMatch: t('accounts.ui.owners.empty') }}
      columns={() => [...createdColumns(t), nameColumn(t), objectsColumn(t), ...modifiedColumns(t)]}
    />
  );
}
