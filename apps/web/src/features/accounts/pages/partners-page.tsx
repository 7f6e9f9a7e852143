import { Badge, Group } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { PARTNERS } from '../api/account-lists.ts';
import { createdColumns, modifiedColumns, nameColumn, phoneColumn } from '../../../components/account-columns.tsx';
import { AccountList } from '../components/account-list.tsx';

/** /Partners: other agencies and tourism partners, by who entered them, their country and when. */
export function PartnersPage() {
  const { t } = useTranslation();
  return (
    <AccountList
      {...PARTNERS}
      fields={() => [
        { kind: 'account', name: 'createdBy', textName: 'createdByText', filter: 1, label: t('accounts.ui.col.createdBy'), testId: 'partners-filter-createdby' },
        { kind: 'text', name: 'country', label: t('accounts.ui.col.country'), span: { base: 12, sm: 6, lg: 3 } },
        { kind: 'date', name: 'createdOnStart', label: t('accounts.ui.partners.createdFrom'), span: { base: 6, lg: 2 } },
        { kind: 'date', name: 'createdOnEnd', label: t('accounts.ui.partners.createdTo'), span: { base: 6, lg: 2 } },
      ]}
      columns={() => [
        ...createdColumns(t),
        nameColumn(t),
        phoneColumn(t),
        {
          accessor: 'category',
          title: t('accounts.ui.col.category'),
          render: (r) => (
            <Group gap={4}>
              {r.isPartnerRealEstate && (
                <Badge variant="light" size="sm" tt="none">
                  {t('accounts.ui.partner.realEstate')}
                </Badge>
              )}
              {r.isPartnerTourism && (
                <Badge variant="light" color="teal" size="sm" tt="none">
                  {t('accounts.ui.partner.tourism')}
                </Badge>
              )}
            </Group>
          ),
        },
        { accessor: 'country', title: t('accounts.ui.col.country') },
        ...modifiedColumns(t),
      ]}
    />
  );
}
