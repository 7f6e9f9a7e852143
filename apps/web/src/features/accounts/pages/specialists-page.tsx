import { Badge, Group } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TSpecialistRow } from '@crm/contract';
import { ListScreen } from '../../../kit/list-screen.tsx';
import { SPECIALTIES } from '../account-fields.ts';
import { SPECIALIST_LIST, SPECIALIST_SEARCH, specialistsQuery, type TSearchFilter } from '../api/account-lists.ts';
import { noMatchOf, searchField } from '../components/search-field.ts';
import { nameColumn, phoneColumn } from '../../../components/account-columns.tsx';
import { ACCOUNT, type AnswerOf } from '@crm/contract/resources';

/** /Professionals: lawyers, notaries, engineers and the like, with their specialities. */
export function SpecialistsPage() {
  const { t } = useTranslation();
  return (
    <ListScreen<TSpecialistRow, TSearchFilter, AnswerOf<typeof ACCOUNT.calls.professionals>>
      testId="specialists"
      title={t('title.specialists')}
      saved={{ list: SPECIALIST_LIST, filter: SPECIALIST_SEARCH }}
      debounced={['search']}
      fields={() => [searchField(t, 'specialists')]}
      query={specialistsQuery}
      add={{ to: '/Accounts/AddProfessional', label: t('accounts.ui.specialists.add') }}
      empty={{ none: t('accounts.ui.specialists.empty'), noMatch: noMatchOf(t) }}
      columns={() => [
        nameColumn(t), phoneColumn(t),
        {
          accessor: 'speciality',
          title: t('accounts.ui.col.speciality'),
          render: (r) => (
            <Group gap={4} wrap="wrap">
              {SPECIALTIES.filter((s) => r[s]).map((s) => (
                <Badge key={s} variant="light" size="sm" tt="none" data-testid="speciality">
                  {t(`accounts.ui.specialty.${s}`)}
                </Badge>
              ))}
            </Group>
          ),
        },
        { accessor: 'numberOfSoldObjects', title: t('accounts.ui.col.soldObjects'), textAlign: 'right' },
      ]}
    />
  );
}
