import { Group, Tooltip } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { IconExclamationCircle } from '../../../components/icons.ts';
import { CLIENTS } from '../api/account-lists.ts';
import { AccountLink, createdColumns, modifiedColumns, objectsColumn, phoneColumn } from '../../../components/account-columns.tsx';
import { AccountList } from '../components/account-list.tsx';
import { formatBudget } from '../components/budget.ts';

/** /Clients: the buyers and tenants, by what they ask for, their source, when, and name. */
export function ClientsPage() {
  const { t } = useTranslation();
  return (
    <AccountList
      {...CLIENTS}
      fields={({ answer }) => [
        {
          kind: 'select',
          name: 'serviceFilter',
          label: t('accounts.ui.clients.service'),
          options: [{ value: 0, text: t('accounts.ui.clients.allServices') }, ...(answer?.filterLists.serviceList ?? []).filter((o) => String(o.value) !== '0')],
          numeric: true,
          testId: 'clients-filter-service',
        },
        { kind: 'multi', name: 'sources', label: t('accounts.ui.clients.sources'), options: answer?.filterLists.sourceList, allLabel: t('accounts.ui.clients.allSources'), searchable: true },
        { kind: 'date', name: 'startDate', label: t('accounts.ui.clients.startDate'), testId: 'clients-filter-start', span: { base: 6, lg: 2 } },
        { kind: 'date', name: 'endDate', label: t('accounts.ui.clients.endDate'), testId: 'clients-filter-end', span: { base: 6, lg: 2 } },
        { kind: 'text', name: 'lastName', label: t('accounts.ui.clients.lastName'), testId: 'clients-filter-lastname', span: { base: 12, sm: 8, lg: 'auto' } },
      ]}
      columns={() => [
        ...createdColumns(t),
        {
          accessor: 'name',
          title: t('accounts.ui.col.name'),
          sortable: true,
          card: 'title',
          render: (r) => (
            <Group gap={4} wrap="nowrap">
              <AccountLink id={r.id} name={r.name} />
              {r.hasNotClosedLead && (
                <Tooltip label={t('accounts.ui.clients.openLead')}>
                  <IconExclamationCircle size={16} color="var(--mantine-color-red-6)" role="img" aria-label={t('accounts.ui.clients.openLead')} data-testid="open-lead" />
                </Tooltip>
              )}
            </Group>
          ),
        },
        phoneColumn(t),
        objectsColumn(t),
        { accessor: 'request', title: t('accounts.ui.col.request'), sortable: true, noWrap: true, render: (r) => formatBudget(t, r.purchaseBudgetRangeMin, r.purchaseBudgetRangeMax) },
        ...modifiedColumns(t),
      ]}
    />
  );
}
