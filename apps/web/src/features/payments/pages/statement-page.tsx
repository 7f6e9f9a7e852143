import { ActionIcon, Alert, Anchor, Badge, Button, Card, Checkbox, Grid, Group, Menu, Select, SimpleGrid, Stack, Text, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import type { TStatementItem } from '@crm/contract';
import { STATEMENT_PAGE_SIZES } from '@crm/contract/payment-constants';
import { statementHeadKey } from '@crm/contract/transaction-fields';
import { DataTable, type DataTableColumn } from '../../../components/data-table.tsx';
import { FilterCard } from '../../../components/filter-card.tsx';
import { IconChevronDown, IconCircleCheck, IconFile, IconKey, IconMail, IconPencil, IconPlus } from '../../../components/icons.ts';
import { RecordNotFound } from '../../../components/record-not-found.tsx';
import { DownloadButton } from '../../../components/download-button.tsx';
import { ApiError } from '../../../lib/api.ts';
import { variantStore } from '../../../lib/variant.ts';
import { showBanner } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { agencyToday } from '../../../lib/agency-clock.ts';
import { formatAmount, formatDate, formatDateTime } from '../../../lib/format.ts';
import { useSavedFilter, type ListState } from '../../../lib/list-state.ts';
import { ClearFiltersButton } from '../../../components/clear-filters.tsx';
import { StatementApprovalButton } from '../../../components/approvals/statement-approval.tsx';
import { NO_STATEMENT_FILTER, attachmentLink, downloadStatement, sendInvitation, statementQuery, statementSaved, type TStatementFilterState } from '../api/payments.ts';
import { PageLoading } from '../../../components/page-loading.tsx';

/** /Payments/View/{id}: the account's statement. */
/** An unpaid item's due day; once it has passed, said in red as overdue. */
function DueDate({ date }: { date: string }) {
  const { t } = useTranslation();
  const overdue = date.slice(0, 10) < agencyToday();
  return (
    <Text size="xs" {...(overdue ? { c: 'red.9', fw: 700, 'data-overdue': true } : {})} data-testid="statement-due">
      {t(overdue ? 'payments.ui.overdueSince' : 'payments.ui.dueOn', { date: formatDate(date) })}
    </Text>
  );
}

export function StatementPage() {
  const id = Number(useParams().id);
  if (!Number.isInteger(id) || id <= 0) return <RecordNotFound testId="statement-not-found" />;
  return <Statement key={id} accountId={id} />;
}


/** The statement of one account; also the payments app's home for a client (its own account). */
export function Statement({ accountId }: { accountId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const variant = variantStore.use();
  // The filter and the page size, kept per account (spec 2.11, 9).
  const [saved, setSaved] = useSavedFilter(statementSaved(accountId));
  const [currentPage, setCurrentPage] = useState(1);
  const { perPage, ...filter } = saved;
  const q = useQuery(statementQuery(accountId, filter, { perPage, currentPage }));
  const st = q.data;

  const list: [ListState, (next: ListState | ((prev: ListState) => ListState)) => void] = [
    { perPage, currentPage, sortBy: 'transactionDate', sortDir: 'desc' },
    (next) => {
      const v = typeof next === 'function' ? next({ perPage, currentPage, sortBy: 'transactionDate', sortDir: 'desc' }) : next;
      if (v.perPage !== perPage) {
        setSaved((s) => ({ ...s, perPage: v.perPage }));
        setCurrentPage(1);
      } else setCurrentPage(v.currentPage);
    },
  ];
  const change = (patch: Partial<TStatementFilterState>) => {
    setSaved((s) => ({ ...s, ...patch }));
    setCurrentPage(1);
  };
  const filtered = filter.type !== '' || filter.paymentMethod !== '' || filter.categoryId !== '' || filter.unpaidOnly;

  if (q.error instanceof ApiError && q.error.status === 404) return <RecordNotFound testId="statement-not-found" />;
  if (q.isError && !st)
    return (
      <Alert color="red" data-testid="statement-error">
        {describeError(q.error).message}
      </Alert>
    );
  if (!st)
    return <PageLoading />;

  const admin = st.canEdit;
  // The account's page and Set password are the CRM's screens: not where only the payments app is served (decision 056).
  const inCrm = variant !== 'payments';
  const invite = async () => {
    try {
      await sendInvitation(accountId);
      showBanner('success', t('payments.ui.invitationSent'));
    } catch (e) {
      const d = describeError(e);
      showBanner(d.type, d.message);
    }
  };
  const categories = st.lists.categoryId.filter((o) => !filter.type || o.parent === filter.type);
  const toData = (o: { value: string | number; text: string }[]) => o.map((x) => ({ value: String(x.value), label: x.text }));
  const editUrl = (r: TStatementItem) => `/Payments/Edit${r.isDebit ? 'Expense' : 'Income'}/${r.id}`;

  const columns: DataTableColumn<TStatementItem>[] = [
    // On a phone the card is headed by the date; the amounts are lines of it.
    { accessor: 'transactionDate', title: t(statementHeadKey('transactionDate')), noWrap: true, card: 'title', render: (r) => formatDateTime(r.transactionDate) },
    { accessor: 'referenceNumber', title: t(statementHeadKey('referenceNumber')), noWrap: true },
    {
      accessor: 'categoryName',
      title: t(statementHeadKey('categoryId')),
      render: (r) => (
        <Stack gap={2}>
          <Text size="sm">{r.categoryName}</Text>
          {(r.startDate || r.endDate) && (
            <Text size="xs" c="dimmed">
              {t('payments.ui.period', { from: formatDate(r.startDate), to: formatDate(r.endDate) })}
            </Text>
          )}
        </Stack>
      ),
    },
    { accessor: 'paymentMethod', title: t(statementHeadKey('paymentMethod')), render: (r) => t(`payments.method.${r.paymentMethod}`) },
    {
      accessor: 'status',
      title: t(statementHeadKey('status')),
      render: (r) =>
        r.statusId === null ? null : (
          <Stack gap={2} align="flex-start">
            <Badge variant="light" color={r.statusId === 0 ? 'red' : 'green'} tt="none" style={{ overflow: 'visible', height: 'auto' }} data-testid="statement-status">
              {r.status}
            </Badge>
            {r.paymentDate && <Text size="xs">{t('payments.ui.paidOn', { date: formatDate(r.paymentDate) })}</Text>}
            {r.expirationDate && r.statusId === 0 && (
              // Unpaid past its due day: said in red, not in the same words as one due next month.
              <DueDate date={r.expirationDate} />
            )}
          </Stack>
        ),
    },
    { accessor: 'debit', title: t(statementHeadKey('debit')), textAlign: 'right', noWrap: true, render: (r) => formatAmount(r.debit) },
    { accessor: 'credit', title: t(statementHeadKey('credit')), textAlign: 'right', noWrap: true, render: (r) => formatAmount(r.credit) },
    {
      accessor: 'balance',
      title: t(statementHeadKey('balance')),
      textAlign: 'right',
      noWrap: true,
      render: (r) => (
        <Text size="sm" fw={600} c={r.balance.startsWith('-') ? 'red.9' : undefined}>
          {formatAmount(r.balance)}
        </Text>
      ),
    },
    {
      accessor: 'confirmedByClientDate',
      title: t(statementHeadKey('confirmedByClientDate')),
      // The date and its time may go on two lines: in Greek and Russian every column fits at 1280 px.
      render: (r) => {
        const state = r.confirmedByClientDate ? (
          <Group gap={4} wrap="nowrap" align="flex-start" data-testid="statement-approved">
            <IconCircleCheck size={16} color="var(--mantine-color-green-7)" aria-hidden />
            <Text size="sm">{formatDateTime(r.confirmedByClientDate)}</Text>
          </Group>
        ) : r.approvalRequestedOn ? (
          <Text size="xs" c="dimmed" data-testid="statement-awaiting">
            {t('payments.ui.awaitingApproval')}
          </Text>
        ) : null;
        // The account's own client answers the request here too (as on the mailed link's page).
        if (!st.canApprove || !state) return state;
        return (
          <Stack gap={4} align="flex-start">
            {state}
            <StatementApprovalButton item={r} />
          </Stack>
        );
      },
    },
    {
      accessor: 'attachments',
      title: t('payments.ui.col.attachments'),
      render: (r) =>
        r.attachments.length === 0 ? null : (
          <Stack gap={2}>
            {r.attachments.map((a) => (
              <Anchor key={a.id} {...attachmentLink(a)} size="sm" data-testid="statement-attachment" style={{ overflowWrap: 'anywhere', textAlign: 'left' }}>
                <Group gap={4} wrap="nowrap">
                  <IconFile size={14} aria-hidden />
                  {a.name}
                </Group>
              </Anchor>
            ))}
          </Stack>
        ),
    },
    ...(admin
      ? [
          {
            accessor: 'edit',
            title: <VisuallyHidden>{t('common.edit')}</VisuallyHidden>,
            width: 50,
            card: 'action',
            render: (r: TStatementItem) => (
              <Tooltip label={t('common.edit')}>
                <ActionIcon component={Link} to={editUrl(r)} variant="subtle" aria-label={t('payments.ui.editRow', { ref: r.referenceNumber })} data-testid="statement-edit">
                  <IconPencil size={16} />
                </ActionIcon>
              </Tooltip>
            ),
          } satisfies DataTableColumn<TStatementItem>,
        ]
      : []),
  ];

  const total = (label: string, value: string, testId: string, color?: string) => (
    <Card withBorder padding="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="lg" fw={700} c={color} data-testid={testId} data-value={value}>
        {formatAmount(value)}
      </Text>
    </Card>
  );

  return (
    <Stack gap="md" data-testid="statement-page">
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Title order={2}>
            {admin && inCrm ? (
              <Anchor component={Link} to={`/Accounts/View/${st.id}`} inherit data-testid="statement-account">
                {st.accountDisplayName}
              </Anchor>
            ) : (
              <span data-testid="statement-account">{st.accountDisplayName}</span>
            )}
          </Title>
          {st.accountEmail && (
            <Text size="sm" c="dimmed">
              {st.accountEmail}
            </Text>
          )}
        </Stack>
        <Group gap="xs">
          {/* Beside the title, not in the filters: on a phone the filters fold away, and the download is what a client comes for. */}
          <DownloadButton download={() => downloadStatement(accountId, filter)} label={t('payments.ui.download')} testId="statement-download" />
          {admin && (
            <>
              <Button leftSection={<IconPlus size={16} />} onClick={() => navigate(`/Payments/AddIncome/${st.id}`)} data-testid="statement-add-income">
                {t('payments.ui.addIncome')}
              </Button>
              <Button leftSection={<IconPlus size={16} />} variant="light" onClick={() => navigate(`/Payments/AddExpense/${st.id}`)} data-testid="statement-add-expense">
                {t('payments.ui.addExpense')}
              </Button>
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <Button variant="default" rightSection={<IconChevronDown size={16} />} data-testid="statement-admin-menu">
                    {t('payments.ui.administration')}
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item leftSection={<IconMail size={16} />} onClick={() => void invite()} data-testid="statement-invite">
                    {t('payments.ui.sendInvitation')}
                  </Menu.Item>
                  {inCrm && (
                    <Menu.Item leftSection={<IconKey size={16} />} onClick={() => navigate(`/SetPassword/${st.id}`)} data-testid="statement-set-password">
                      {t('payments.ui.setPassword')}
                    </Menu.Item>
                  )}
                </Menu.Dropdown>
              </Menu>
            </>
          )}
        </Group>
      </Group>
      {/* The account's balance whatever the filter; with a filter, the shown rows' sum beside it, named so. */}
      <SimpleGrid cols={{ base: 1, xs: st.shownSum == null ? 3 : 2, md: st.shownSum == null ? 3 : 4 }} spacing="sm">
        {total(t('payments.balance'), st.balance, 'statement-balance', st.balance.startsWith('-') ? 'red.8' : undefined)}
        {total(t('payments.totalDebit'), st.totalDebit, 'statement-total-debit')}
        {total(t('payments.totalCredit'), st.totalCredit, 'statement-total-credit')}
        {st.shownSum != null && total(t('payments.shownSum'), st.shownSum, 'statement-shown-sum', st.shownSum.startsWith('-') ? 'red.8' : undefined)}
      </SimpleGrid>
      <FilterCard active={filtered} testId="statement-filter">
        <Grid gap="sm" align="flex-end">
          <Grid.Col span={{ base: 12, sm: 6, lg: 2 }}>
            <Select
              label={t(statementHeadKey('type'))}
              data={[
                { value: '', label: t('payments.ui.filter.all') },
                { value: 'income', label: t('payments.type.income') },
                { value: 'expense', label: t('payments.type.expense') },
              ]}
              value={filter.type}
              allowDeselect={false}
              onChange={(v) => change({ type: (v ?? '') as TStatementFilterState['type'], categoryId: '' })}
              data-testid="statement-filter-type"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 2 }}>
            <Select
              label={t(statementHeadKey('paymentMethod'))}
              data={[{ value: '', label: t('payments.ui.filter.all') }, ...toData(st.lists.paymentMethod)]}
              value={filter.paymentMethod}
              allowDeselect={false}
              onChange={(v) => change({ paymentMethod: (v ?? '') as TStatementFilterState['paymentMethod'] })}
              data-testid="statement-filter-method"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <Select
              label={t(statementHeadKey('categoryId'))}
              data={[{ value: '', label: t('payments.ui.filter.all') }, ...toData(categories)]}
              value={filter.categoryId}
              allowDeselect={false}
              searchable
              onChange={(v) => change({ categoryId: v ?? '' })}
              data-testid="statement-filter-category"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 'content' }}>
            <Checkbox
              label={
                <Group gap={6} wrap="nowrap">
                  {t('payments.filter.unpaidOnly')}
                  <Badge size="sm" color={st.unpaidCount ? 'red' : 'gray'} variant="light" data-testid="statement-unpaid-count">
                    {st.unpaidCount}
                  </Badge>
                </Group>
              }
              checked={filter.unpaidOnly}
              onChange={(e) => change({ unpaidOnly: e.currentTarget.checked })}
              mb={8}
              data-testid="statement-filter-unpaid"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 'auto' }}>
            <Group gap="xs" justify="flex-end">
              <ClearFiltersButton disabled={!filtered} onClear={() => change(NO_STATEMENT_FILTER)} data-testid="statement-filter-clear" />
            </Group>
          </Grid.Col>
        </Grid>
      </FilterCard>
      <DataTable
        testId="statement-table"
        list={list}
        records={st.items}
        totalRows={st.totalRows}
        fetching={q.isFetching}
        columns={columns}
        pageSizes={STATEMENT_PAGE_SIZES}
        rowClassName={(r) => (r.isDebit ? 'statement-debit' : 'statement-credit')}
        empty={
          filtered
            ? { text: t('payments.ui.noMatch'), action: <ClearFiltersButton variant="light" onClear={() => change(NO_STATEMENT_FILTER)} /> }
            : { text: t('payments.ui.noTransactions') }
        }
      />
    </Stack>
  );
}
