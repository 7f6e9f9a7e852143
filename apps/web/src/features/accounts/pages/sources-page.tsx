import { useTranslation } from '../../../lib/use-translation.tsx';
import { SOURCES } from '../api/account-lists.ts';
import { AccountList } from '../components/account-list.tsx';
import { nameColumn, phoneColumn } from '../../../components/account-columns.tsx';

/** /Sources: where leads come from (portals, the site, partners), by name. */
export function SourcesPage() {
  const { t } = useTranslation();
  return (
    <AccountList
      {...SOURCES}
      columns={() => [nameColumn(t), phoneColumn(t), { accessor: 'companyType', title: t('accounts.ui.col.companyType'), sortable: true }]}
    />
  );
}
