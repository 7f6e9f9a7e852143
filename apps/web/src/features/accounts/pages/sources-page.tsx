import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TSourceRow } from '@crm/contract';
import { SOURCE_LIST, SOURCE_SEARCH, sourcesQuery, type TSearchFilter } from '../api/account-lists.ts';
import { AccountList } from '../components/account-list.tsx';
import { nameColumn, phoneColumn } from '../../../components/account-columns.tsx';
import { ACCOUNT, type AnswerOf } from '@crm/contract/resources';

/** /Sources: where leads come from (portals, the site, partners), by name. */
export function SourcesPage() {
  const { t } = useTranslation();
  return (
    <AccountList<TSourceRow, TSearchFilter, AnswerOf<typeof ACCOUNT.calls.sources>>
      list={ACCOUNT.lists.sources}
      saved={{ list: SOURCE_LIST, filter: SOURCE_SEARCH }}
      query={sourcesQuery}
      columns={() => [nameColumn(t), phoneColumn(t), { accessor: 'companyType', title: t('accounts.ui.col.companyType'), sortable: true }]}
    />
  );
}
