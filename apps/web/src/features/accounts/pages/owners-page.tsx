import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TOwnerRow } from '@crm/contract';
import { OWNER_LIST, OWNER_SEARCH, ownersQuery, type TSearchFilter } from '../api/account-lists.ts';
import { AccountList } from '../components/account-list.tsx';
import { createdColumns, modifiedColumns, nameColumn, objectsColumn, phoneColumn } from '../../../components/account-columns.tsx';
import { ACCOUNT, type AnswerOf } from '@crm/contract/resources';

/** /Owners: the owners, newest first. */
export function OwnersPage() {
  const { t } = useTranslation();
  return (
    <AccountList<TOwnerRow, TSearchFilter, AnswerOf<typeof ACCOUNT.calls.owners>>
      list={ACCOUNT.lists.owners}
      saved={{ list: OWNER_LIST, filter: OWNER_SEARCH }}
      query={ownersQuery}
      columns={() => [...createdColumns(t), nameColumn(t), phoneColumn(t), objectsColumn(t), ...modifiedColumns(t)]}
    />
  );
}
