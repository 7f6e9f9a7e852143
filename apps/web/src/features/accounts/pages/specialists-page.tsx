import { Badge, Button, Group, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TSpecialistRow } from '@crm/contract';
import { DataTable, ListHeader, type DataTableColumn } from '../../../components/data-table.tsx';
import { IconPlus } from '../../../components/icons.ts';
import { useSavedList } from '../../../lib/list-state.ts';
import { SPECIALTIES } from '../account-fields.ts';
import { SPECIALIST_LIST, specialistsQuery } from '../api/account-lists.ts';
import { nameColumn } from '../../../components/account-columns.tsx';

export function SpecialistsPage() {
  const { t } = useTranslation();
  const list = useSavedList(SPECIALIST_LIST);
  const q = useQuery(specialistsQuery(list[0]));
  const columns: DataTableColumn<TSpecialistRow>[] = [
    nameColumn(t),
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
  ];
  const add = (
    <Button component={Link} to="/Accounts/AddProfessional" leftSection={<IconPlus size={16} />} data-testid="specialists-add">
      {t('accounts.ui.specialists.add')}
    </Button>
  );
  return (
    <Stack gap="md">
      <ListHeader title={t('title.specialists')} count={q.data?.totalRows} testId="specialists">
        {add}
      </ListHeader>
      <DataTable
        testId="specialists-table"
        list={list}
        records={q.data?.items}
        totalRows={q.data?.totalRows}
        fetching={q.isFetching}
        columns={columns}
        empty={{ text: t('accounts.ui.specialists.empty'), action: add }}
      />
    </Stack>
  );
}
