import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TSourceRow } from '@crm/contract';
import { ListScreen } from '../../../kit/list-screen.tsx';
import { SOURCE_LIST, SOURCE_SEARCH, sourcesQuery, type TSearchFilter } from '../api/account-lists.ts';
import { noMatchOf, searchField } from '../components/search-field.ts';
import { nameColumn, phoneColumn } from '../../../components/account-columns.tsx';
import { ACCOUNT, type AnswerOf } from '@crm/contract/resources';

/** /Sources: where leads come from (portals, the site, partners), by name. */
export function SourcesPage() {
  const { t } = useTranslation();
  return (
    <ListScreen<TSourceRow, TSearchFilter, AnswerOf<typeof ACCOUNT.calls.sources>>
      testId="sources"
      title={t('title.sources')}
      saved={{ list: SOURCE_LIST, filter: SOURCE_SEARCH }}
      debounced={['search']}
      fields={() => [searchField(t, 'sources')]}
      query={sourcesQuery}
      add={{ to: '/Accounts/AddSource', label: t('accounts.ui.sources.add') }}
      empty={{ none: t('accounts.ui.sources.empty'), noMatch: noMatchOf(t) }}
      columns={() => [nameColumn(t), phoneColumn(t), { accessor: 'companyType', title: t('accounts.ui.col.companyType'), sortable: true }]}
    />
  );
}
