import { ActionIcon, Anchor, Badge, Button, Card, Checkbox, Group, Menu, SimpleGrid, Stack, Text, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link, useNavigate } from 'react-router';
import type { TStatementAnswer, TStatementItem } from '@crm/contract';
import { STATEMENT_PAGE_SIZES } from '@crm/contract/payment-constants';
import { statementHeadKey } from '@crm/contract/transaction-fields';
import { ACCOUNT, href, PAYMENT } from '@crm/contract/resources';
import type { DataTableColumn } from '../../../components/data-table.tsx';
import { IconChevronDown, IconCircleCheck, IconFile, IconKey, IconMail, IconPencil, IconPlus } from '../../../components/icons.ts';
import { DownloadButton } from '../../../components/download-button.tsx';
import { variantStore } from '../../../lib/variant.ts';
import { showBanner } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { agencyToday } from '../../../lib/agency-clock.ts';
import { formatAmount, formatDate, formatDateTime } from '../../../lib/format.ts';
import { useSavedFilter, type ListState } from '../../../lib/list-state.ts';
import { StatementApprovalButton } from '../../../components/approvals/statement-approval.tsx';
import { ListBody, type ListTuple } from '../../../kit/list-screen.tsx';
import { RecordLoad, useRecordAddress } from '../../../kit/record.tsx';
import { BalanceWords } from '../components/balance-words.tsx';
import { NO_STATEMENT_FILTER, attachmentLink, downloadStatement, sendInvitation, statementQuery, statementSaved, type TStatementFilterState } from '../api/payments.ts';

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

/** /Payments/View/{id}: the account's statement; also the payments app's home for a client (its own account). */
export function StatementPage() {
  const { id, valid } = useRecordAddress('/Payments/View/');
  return <Statement key={id} accountId={id ?? 0} valid={valid && id != null} />;
}

function Statement({ accountId, valid }: { accountId: number; valid: boolean }) {
  const { t } = useTranslation();
  // The filter and the page size, kept per account (spec 2.11, 9); the page is this visit's.
  const [saved, setSaved] = useSavedFilter(statementSaved(accountId));
  const [currentPage, setCurrentPage] = useState(1);
  const { perPage, ...filter } = saved;
  const q = useQuery({ ...statementQuery(accountId, filter, { perPage, currentPage }), enabled: valid });
  const state: ListState = { perPage, currentPage, sortBy: 'transactionDate', sortDir: 'desc' };
  const list: ListTuple = [
    state,
    (next) => {
      const v = typeof next === 'function' ? next(state) : next;
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
  const all = t('payments.ui.filter.all');
  return (
    <RecordLoad q={q} valid={valid} mode="view" testId="statement">
      {(st) => (
        <Stack gap="md" data-testid="statement-page">
          <StatementHeader st={st} filter={filter} />
          <StatementTotals st={st} />
          <ListBody<TStatementItem, TStatementFilterState, TStatementAnswer>
            testId="statement"
            list={list}
            q={q}
            filter={filter}
            change={change}
            initial={NO_STATEMENT_FILTER}
            pageSizes={STATEMENT_PAGE_SIZES}
            rowClassName={(r) => (r.isDebit ? 'statement-debit' : 'statement-credit')}
            empty={{ none: t('payments.ui.noTransactions'), noMatch: t('payments.ui.noMatch') }}
            columns={() => statementColumns(t, st)}
            fields={() => [
              // A type chosen narrows the categories to its own: the one chosen before goes.
              { kind: 'select', name: 'type', label: t(statementHeadKey('type')), options: [{ value: '', text: all }, { value: 'income', text: t('payments.type.income') }, { value: 'expense', text: t('payments.type.expense') }], also: () => ({ categoryId: '' }), testId: 'statement-filter-type' },
              { kind: 'select', name: 'paymentMethod', label: t(statementHeadKey('paymentMethod')), options: [{ value: '', text: all }, ...st.lists.paymentMethod], testId: 'statement-filter-method' },
              {
                kind: 'select',
                name: 'categoryId',
                label: t(statementHeadKey('categoryId')),
                options: [{ value: '', text: all }, ...st.lists.categoryId.filter((o) => !filter.type || o.parent === filter.type)],
                searchable: true,
                testId: 'statement-filter-category',
                span: { base: 12, sm: 6, lg: 3 },
              },
              // The owner's properties, when there are any to choose (issue 45).
              ...(st.objects.length || filter.objectId
                ? [
                    {
                      kind: 'select' as const,
                      name: 'objectId' as const,
                      label: t('payments.filter.object'),
                      options: [{ value: '', text: t('payments.filter.allObjects') }, ...st.objects.map((o) => ({ value: String(o.value), text: o.text }))],
                      searchable: true,
                      testId: 'statement-filter-object',
                      span: { base: 12, sm: 6, lg: 3 },
                    },
                  ]
                : []),
              {
                kind: 'custom',
                key: 'unpaidOnly',
                span: { base: 12, sm: 6, lg: 'content' },
                render: () => (
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
                ),
              },
            ]}
          />
        </Stack>
      )}
    </RecordLoad>
  );
}

/** The account's name (a link to its page for the office), its e-mail, the download and the office's actions. */
function StatementHeader({ st, filter }: { st: TStatementAnswer; filter: TStatementFilterState }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const variant = variantStore.use();
  const admin = st.canEdit;
  // The account's page and Set password are the CRM's screens: not where only the payments app is served (decision 019).
  const inCrm = variant !== 'payments';
  const invite = async () => {
    try {
      await sendInvitation(st.id);
      showBanner('success', t('payments.ui.invitationSent'));
    } catch (e) {
      const d = describeError(e);
      showBanner(d.type, d.message);
    }
  };
  return (
    <Group justify="space-between" align="flex-start">
      <Stack gap={2}>
        <Title order={2}>
          {admin && inCrm ? (
            <Anchor component={Link} to={href(ACCOUNT.screens.view, { id: st.id })} inherit data-testid="statement-account">
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
        <DownloadButton download={() => downloadStatement(st.id, filter)} label={t('payments.ui.download')} testId="statement-download" />
        {admin && (
          <>
            <Button leftSection={<IconPlus size={16} />} onClick={() => navigate(href(PAYMENT.screens.addIncome, { accountId: st.id }))} data-testid="statement-add-income">
              {t('payments.ui.addIncome')}
            </Button>
            <Button leftSection={<IconPlus size={16} />} variant="light" onClick={() => navigate(href(PAYMENT.screens.addExpense, { accountId: st.id }))} data-testid="statement-add-expense">
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
                  <Menu.Item leftSection={<IconKey size={16} />} onClick={() => navigate(href(ACCOUNT.screens.setPassword, { id: st.id }))} data-testid="statement-set-password">
                    {t('payments.ui.setPassword')}
                  </Menu.Item>
                )}
              </Menu.Dropdown>
            </Menu>
          </>
        )}
      </Group>
    </Group>
  );
}

/** The account's balance whatever the filter; with a filter, the shown rows' sum beside it, named so. */
function StatementTotals({ st }: { st: TStatementAnswer }) {
  const { t } = useTranslation();
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
    <SimpleGrid cols={{ base: 1, xs: st.shownSum == null ? 3 : 2, md: st.shownSum == null ? 3 : 4 }} spacing="sm">
      <Card withBorder padding="sm">
        <Text size="xs" c="dimmed">
          {t('payments.balance')}
        </Text>
        <Text size="lg" fw={700} c={st.balance.startsWith('-') ? 'red.8' : undefined} data-testid="statement-balance" data-value={st.balance}>
          {formatAmount(st.balance)}
        </Text>
        {/* Who owes whom, by what was paid; the unpaid expenses apart (issue 45). */}
        <BalanceWords balance={st.balance} state={st.balanceState} toPay={st.toPay} testId="statement-balance-words" />
        <Text size="xs" c="dimmed" mt={4}>
          {t('payments.ui.balanceHint')}
        </Text>
      </Card>
      {total(t('payments.totalDebit'), st.totalDebit, 'statement-total-debit')}
      {total(t('payments.totalCredit'), st.totalCredit, 'statement-total-credit')}
      {st.shownSum != null && total(t('payments.shownSum'), st.shownSum, 'statement-shown-sum', st.shownSum.startsWith('-') ? 'red.8' : undefined)}
    </SimpleGrid>
  );
}

/** The statement's columns; the office's edit button on each row. */
function statementColumns(t: TFunction, st: TStatementAnswer): DataTableColumn<TStatementItem>[] {
  const admin = st.canEdit;
  const editUrl = (r: TStatementItem) => href(r.isDebit ? PAYMENT.screens.editExpense : PAYMENT.screens.editIncome, { id: r.id });
  return [
    // On a phone the card is headed by the date; the amounts are lines of it.
    { accessor: 'transactionDate', title: t(statementHeadKey('transactionDate')), noWrap: true, card: 'title', render: (r) => formatDateTime(r.transactionDate) },
    { accessor: 'referenceNumber', title: t(statementHeadKey('referenceNumber')), noWrap: true },
    {
      accessor: 'categoryName',
      title: t(statementHeadKey('categoryId')),
      render: (r) => (
        <Stack gap={2}>
          <Text size="sm">{r.categoryName}</Text>
          {r.objectTitle && (
            <Text size="xs" data-testid="statement-object">
              {r.objectTitle}
            </Text>
          )}
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
}
