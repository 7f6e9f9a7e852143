import { Badge, Group } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TPartnerRow } from '@crm/contract';
import { ListScreen } from '../../../kit/list-screen.tsx';
import { NO_PARTNER_FILTER, PARTNER_FILTER, PARTNER_LIST, partnersQuery, type TPartnerFilter } from '../api/account-lists.ts';
import { createdColumns, modifiedColumns, nameColumn, phoneColumn } from '../../../components/account-columns.tsx';
import { noMatchOf, searchField } from '../components/search-field.ts';
import { ACCOUNT, type AnswerOf } from '@crm/contract/resources';

/** /Partners: other agencies and tourism partners, by who entered them, their country and when. */
export function PartnersPage() {
  const { t } = useTranslation();
  return (
    <ListScreen<TPartnerRow, TPartnerFilter, AnswerOf<typeof ACCOUNT.calls.partners>>
      testId="partners"
      title={t('title.partners')}
      saved={{ list: PARTNER_LIST, filter: PARTNER_FILTER }}
      debounced={['country', 'search']}
      query={partnersQuery}
      add={{ to: '/Accounts/AddPartner', label: t('accounts.ui.partners.add') }}
      empty={{ none: t('accounts.ui.partners.empty'), noMatch: noMatchOf(t, { initial: NO_PARTNER_FILTER, text: t('accounts.ui.partners.noMatch') }) }}
      fields={() => [
        searchField(t, 'partners'),
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
