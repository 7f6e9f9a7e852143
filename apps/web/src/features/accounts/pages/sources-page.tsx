import { useTranslation } from 'react-i18next';
import type { TSourceRow } from '@crm/contract';
import { ListScreen } from '../../../kit/list-screen.tsx';
import { SOURCE_LIST, sourcesQuery } from '../api/account-lists.ts';
import { nameColumn } from '../../../components/account-columns.tsx';
import { ACCOUNT, type AnswerOf } from '@crm/contract/resources';

/** /Sources: where leads come from (portals, the site, partners), by name. */
export function SourcesPage() {
  const { t } = useTranslation();
  return (
    <ListScreen<TSourceRow, Record<string, never>, AnswerOf<typeof ACCOUNT.calls.sources>>
      testId="sources"
      title={t('title.sources')}
      saved={{ list: SOURCE_LIST }}
      query={(_f, page) => sourcesQuery(page)}
      add={{ to: '/Accounts/AddSource', label: t('accounts.ui.sources.add') }}
      empty={{ none: t('accounts.ui.sources.empty'), noMatch: t('accounts.ui.sources.empty') }}
      columns={() => [nameColumn(t), { accessor: 'companyType', title: t('accounts.ui.col.companyType'), sortable: true }]}
    />
  );
}
