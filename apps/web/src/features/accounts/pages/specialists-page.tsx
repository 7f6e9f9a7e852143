import { Badge, Group } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { SPECIALTIES } from '../account-fields.ts';
import { SPECIALISTS } from '../api/account-lists.ts';
import { AccountList } from '../components/account-list.tsx';
import { nameColumn, phoneColumn } from '../../../components/account-columns.tsx';

/** /Professionals: lawyers, notaries, engineers and the like, with their specialities. */
export function SpecialistsPage() {
  const { t } = useTranslation();
  return (
    <AccountList
      {...SPECIALISTS}
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
