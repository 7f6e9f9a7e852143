import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TOwnerRow } from '@crm/contract';
import { ListScreen } from '../../../kit/list-screen.tsx';
import { OWNER_LIST, OWNER_SEARCH, ownersQuery, type TSearchFilter } from '../api/account-lists.ts';
import { noMatchOf, searchField } from '../components/search-field.ts';
import { createdColumns, modifiedColumns, nameColumn, objectsColumn, phoneColumn } from '../../../components/account-columns.tsx';
import { ACCOUNT, type AnswerOf } from '@crm/contract/resources';

/** /Owners: the owners, newest first. */
export function OwnersPage() {
  const { t } = useTranslation();
  return (
    <ListScreen<TOwnerRow, TSearchFilter, AnswerOf<typeof ACCOUNT.calls.owners>>
      testId="owners"
      title={t('title.owners')}
      saved={{ list: OWNER_LIST, filter: OWNER_SEARCH }}
      debounced={['search']}
      fields={() => [searchField(t, 'owners')]}
      query={ownersQuery}
      add={{ to: '/Accounts/AddOwner', label: t('accounts.ui.owners.add') }}
      empty={{ none: t('accounts.ui.owners.empty'), noMatch: noMatchOf(t) }}
      columns={() => [...createdColumns(t), nameColumn(t), phoneColumn(t), objectsColumn(t), ...modifiedColumns(t)]}
    />
  );
}
