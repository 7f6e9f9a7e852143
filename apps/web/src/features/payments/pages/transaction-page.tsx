import { ActionIcon, Alert, Anchor, Button, Card, Center, FileButton, Grid, Group, Loader, Select, Stack, Text, TextInput, Textarea, Title, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { TExpenseForm, TTransactionType } from '@crm/contract';
import { AttachmentState } from '@crm/contract/payment-constants';
import { IconArrowLeft, IconFile, IconPlus, IconTrash, IconX } from '../../../components/icons.ts';
import { UPLOAD_ACCEPT } from '../../../components/file-drop.tsx';
import { ApiError } from '../../../lib/api.ts';
import { showBanner, showBannerAfterNavigation } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { amountForInput, formatDateTime } from '../../../lib/format.ts';
import { currentCulture } from '../../../lib/i18n.ts';
import { DateField } from '../../accounts/components/date-field.tsx';
import { deleteTransaction, openAttachment, paymentKeys, saveTransaction, transactionFormQuery, type TTransactionForm } from '../api/payments.ts';
import { ExpenseApprovalControl } from '../../payments-client/components/expense-approval.tsx';

export const IncomePage = () => <TransactionPage type="income" />;
export const ExpensePage = () => <TransactionPage type="expense" />;

/** The form's modes (spec 4): no id and no account, a new one for an account, a stored one. */
type Mode = 'undefined' | 'create' | 'edit';

/**
 * /Payments/AddIncome/{accountId}, /Payments/EditIncome/{id}, /Payments/View/Income/{id},
 * /Payments/AddExpense/{accountId}, /Payments/EditExpense/{id}.
 */
export function TransactionPage({ type }: { type: TTransactionType }) {
  const { t } = useTranslation();
  const params = useParams();
  const { pathname } = useLocation();
  const id = params.id ? Number(params.id) : null;
  const accountId = params.accountId ? Number(params.accountId) : null;
  const valid = (id == null || (Number.isInteger(id) && id > 0)) && (accountId == null || (Number.isInteger(accountId) && accountId > 0));
  const mode: Mode = !valid || (id == null && accountId == null) ? 'undefined' : id != null ? 'edit' : 'create';
  const viewOnly = pathname.toLowerCase().startsWith('/payments/view/');
  const q = useQuery({ ...transactionFormQuery(type, id, accountId), enabled: mode !== 'undefined' });
  // A failed load shows the error, and the form stays hidden (mode undefined).
  if (mode === 'undefined' || q.isError)
    return (
      <Alert color="red" title={t('payments.ui.error')} data-testid="transaction-error">
        {mode === 'undefined' ? t('payments.ui.noTransaction') : describeError(q.error).message}
      </Alert>
    );
  if (!q.data)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  return <TransactionForm key={`${q.data.updateFields.id}-${q.data.updateFields.version}`} type={type} mode={mode} form={q.data} readOnly={viewOnly || !q.data.canEdit} />;
}

type Existing = { id: number; name: string; state: number };
type Draft = {
  amount: string;
  date: string | null;
  time: string;
  paymentMethod: string;
  categoryId: string | null;
  internalNotes: string;
  status: string;
  paymentDate: string | null;
  expirationDate: string | null;
  startDate: string | null;
  endDate: string | null;
};

/** The stored date-time for its two inputs; one shorter than 19 characters is left alone (spec 5). */
const split = (dt: string | null | undefined): [string | null, string] => (dt && dt.length >= 19 ? [dt.slice(0, 10), dt.slice(11, 16)] : [null, '']);
/** The two inputs joined into the 19-character date-time the server reads ("2026-03-01T10:00:00"). */
export const joinDateTime = (date: string | null, time: string) => (date ? `${date}T${(time || '00:00').slice(0, 5)}:00` : '');

function toDraft(f: TTransactionForm): Draft {
  const u = f.updateFields;
  const e = (f as TExpenseForm).updateFields;
  const [date, time] = split(u.transactionDate);
  return {
    amount: u.amount ? amountForInput(u.amount, currentCulture()) : '',
    date,
    time,
    paymentMethod: String(u.paymentMethod),
    categoryId: u.categoryId == null ? null : String(u.categoryId),
    internalNotes: u.internalNotes ?? '',
    status: String(e.status ?? 0),
    paymentDate: e.paymentDate ?? null,
    expirationDate: e.expirationDate ?? null,
    startDate: e.startDate ?? null,
    endDate: e.endDate ?? null,
  };
}

function TransactionForm({ type, mode, form, readOnly }: { type: TTransactionType; mode: 'create' | 'edit'; form: TTransactionForm; readOnly: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => toDraft(form));
  const [existing, setExisting] = useState<Existing[]>(form.attachments);
  const [added, setAdded] = useState<File[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const expense = type === 'expense';
  const u = form.updateFields;
  const lists = form.lists as TExpenseForm['lists'];
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const toData = (o: { value: string | number; text: string }[] | undefined) => (o ?? []).map((x) => ({ value: String(x.value), label: x.text }));
  const back = () => navigate(`/Payments/View/${u.accountId}`);

  const save = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const body = new FormData();
    if (mode === 'edit') {
      body.append('id', String(u.id));
      body.append('version', String(u.version));
    } else body.append('accountId', String(u.accountId));
    body.append('amount', draft.amount);
    body.append('transactionDate', joinDateTime(draft.date, draft.time));
    body.append('paymentMethod', draft.paymentMethod);
    body.append('categoryId', draft.categoryId ?? '');
    body.append('internalNotes', draft.internalNotes);
    if (expense) {
      body.append('status', draft.status);
      for (const k of ['paymentDate', 'expirationDate', 'startDate', 'endDate'] as const) body.append(k, draft[k] ?? '');
    }
    body.append('attachments', JSON.stringify(existing.map((a) => ({ id: a.id, state: a.state }))));
    for (const f of added) body.append('files', f, f.name);
    try {
      const saved = await saveTransaction(type, mode === 'edit' ? 'edit' : 'add', body);
      void client.invalidateQueries({ queryKey: paymentKeys.all });
      if (saved.approvalWithdrawn) showBannerAfterNavigation('warning', t('payments.ui.approvalWithdrawn'));
      else showBannerAfterNavigation('success', t(expense ? 'payments.ui.expenseSaved' : 'payments.ui.incomeSaved'));
      back();
    } catch (e) {
      if (e instanceof ApiError && e.status === 409 && e.problem.current) {
        // Someone changed it meanwhile: the form shows it as it is now.
        client.setQueryData(paymentKeys.form(type, u.id, null), e.problem.current as TTransactionForm);
        showBanner('warning', e.problem.title || t('errors.conflict'));
      } else if (e instanceof ApiError && e.status === 400 && Object.keys(e.fieldErrors).length) {
        setErrors(e.fieldErrors);
        setError(describeError(e).message);
      } else setError(describeError(e).message);
    } finally {
      setBusy(false);
    }
  };

  const remove = () =>
    modals.openConfirmModal({
      title: t(expense ? 'payments.ui.deleteExpense' : 'payments.ui.deleteIncome'),
      children: <Text size="sm">{t('payments.ui.deleteHint')}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete' } as Record<string, unknown>,
      onConfirm: async () => {
        try {
          await deleteTransaction(u.id!);
          void client.invalidateQueries({ queryKey: paymentKeys.all });
          showBannerAfterNavigation('success', t(expense ? 'payments.ui.expenseDeleted' : 'payments.ui.incomeDeleted'));
          back();
        } catch (e) {
          setError(describeError(e).message);
        }
      },
    });

  const toggle = (id: number) => setExisting((list) => list.map((a) => (a.id === id ? { ...a, state: a.state === AttachmentState.Deleted ? AttachmentState.Existing : AttachmentState.Deleted } : a)));
  const err = (field: string) => errors[field];
  const date = (field: 'paymentDate' | 'expirationDate' | 'startDate' | 'endDate') => (
    <DateField label={t(`payments.ui.field.${field}`)} value={draft[field]} onChange={(v) => set({ [field]: v })} error={err(field)} disabled={readOnly} data-testid={`transaction-${field}`} />
  );
  const title = t(mode === 'create' ? (expense ? 'payments.ui.newExpense' : 'payments.ui.newIncome') : expense ? 'payments.ui.expense' : 'payments.ui.income');

  return (
    <Stack gap="md" maw={900} data-testid="transaction-page" data-mode={mode} data-type={type}>
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Title order={2}>
            {title}
            {form.displayFields.referenceNumber && <Text span c="dimmed" inherit>{` #${form.displayFields.referenceNumber}`}</Text>}
          </Title>
          <Anchor component={Link} to={`/Payments/View/${u.accountId}`} data-testid="transaction-account">
            {form.displayFields.accountDisplayName}
          </Anchor>
        </Stack>
        <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={back} data-testid="transaction-back">
          {t('payments.ui.backToStatement')}
        </Button>
      </Group>
      {error && (
        <Alert color="red" title={t('payments.ui.error')} withCloseButton onClose={() => setError(null)} data-testid="transaction-form-error">
          {error}
        </Alert>
      )}
      {form.confirmedByClientDate && (
        <Alert color="green" data-testid="transaction-approved">
          {t('payments.ui.approvedOn', { date: formatDateTime(form.confirmedByClientDate) })}
          {expense && mode === 'edit' && !readOnly && <Text size="sm">{t('payments.ui.approvedEditHint')}</Text>}
        </Alert>
      )}
      {expense && mode === 'edit' && !readOnly && !form.confirmedByClientDate && u.id !== null && (
        <ExpenseApprovalControl transactionId={u.id} approvalRequestedOn={(form as TExpenseForm).approvalRequestedOn} confirmedByClientDate={null} />
      )}
      <Card withBorder>
        <Grid gap="sm">
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <TextInput
              label={t('payments.ui.field.amount')}
              required
              inputMode="decimal"
              rightSection="€"
              value={draft.amount}
              onChange={(e) => set({ amount: e.currentTarget.value })}
              error={err('amount')}
              disabled={readOnly}
              data-testid="transaction-amount"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 7, sm: 5 }}>
            <DateField label={t('payments.ui.field.date')} required value={draft.date} onChange={(v) => set({ date: v })} error={err('transactionDate')} disabled={readOnly} data-testid="transaction-date" />
          </Grid.Col>
          <Grid.Col span={{ base: 5, sm: 3 }}>
            <TextInput label={t('payments.ui.field.time')} type="time" required value={draft.time} onChange={(e) => set({ time: e.currentTarget.value })} disabled={readOnly} data-testid="transaction-time" />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <Select
              label={t('payments.ui.field.paymentMethod')}
              data={toData(lists.paymentMethod)}
              value={draft.paymentMethod}
              allowDeselect={false}
              onChange={(v) => set({ paymentMethod: v ?? '1' })}
              error={err('paymentMethod')}
              disabled={readOnly}
              data-testid="transaction-method"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 8 }}>
            <Select
              label={t('payments.ui.field.category')}
              required
              searchable
              data={toData(lists.categoryId)}
              value={draft.categoryId}
              onChange={(v) => set({ categoryId: v })}
              error={err('categoryId')}
              disabled={readOnly}
              data-testid="transaction-category"
            />
          </Grid.Col>
          {expense && (
            <>
              <Grid.Col span={{ base: 12, sm: 4 }}>
                <Select
                  label={t('payments.ui.field.status')}
                  data={toData(lists.status)}
                  value={draft.status}
                  allowDeselect={false}
                  onChange={(v) => set({ status: v ?? '0' })}
                  error={err('status')}
                  disabled={readOnly}
                  data-testid="transaction-status"
                />
              </Grid.Col>
              <Grid.Col span={{ base: 6, sm: 4 }}>{date('paymentDate')}</Grid.Col>
              <Grid.Col span={{ base: 6, sm: 4 }}>{date('expirationDate')}</Grid.Col>
              <Grid.Col span={{ base: 6, sm: 4 }}>{date('startDate')}</Grid.Col>
              <Grid.Col span={{ base: 6, sm: 4 }}>{date('endDate')}</Grid.Col>
            </>
          )}
          <Grid.Col span={12}>
            <Textarea
              label={t('payments.ui.field.internalNotes')}
              autosize
              minRows={2}
              value={draft.internalNotes}
              onChange={(e) => set({ internalNotes: e.currentTarget.value })}
              error={err('internalNotes')}
              disabled={readOnly}
              data-testid="transaction-notes"
            />
          </Grid.Col>
        </Grid>
      </Card>
      <Card withBorder data-testid="transaction-attachments">
        <Stack gap="xs">
          <Group justify="space-between">
            <Text fw={600}>{t('payments.ui.attachments')}</Text>
            {!readOnly && (
              <FileButton multiple accept={UPLOAD_ACCEPT} onChange={(files) => setAdded((a) => [...a, ...files])}>
                {(props) => (
                  <Button {...props} variant="light" size="xs" leftSection={<IconPlus size={14} />} data-testid="transaction-add-files">
                    {t('payments.ui.addFiles')}
                  </Button>
                )}
              </FileButton>
            )}
          </Group>
          {existing.length === 0 && added.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('payments.ui.noAttachments')}
            </Text>
          )}
          {existing.map((a) => {
            const deleted = a.state === AttachmentState.Deleted;
            return (
              <Group key={a.id} gap="xs" wrap="nowrap" data-testid="attachment-row" data-state={deleted ? 'deleted' : 'existing'}>
                <IconFile size={16} aria-hidden />
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  td={deleted ? 'line-through' : undefined}
                  c={deleted ? 'dimmed' : undefined}
                  onClick={() => void openAttachment(a.id, a.name).catch((e: unknown) => setError(describeError(e).message))}
                  style={{ overflowWrap: 'anywhere', textAlign: 'left' }}
                >
                  {a.name}
                </Anchor>
                {!readOnly &&
                  (deleted ? (
                    <Button size="compact-xs" variant="subtle" onClick={() => toggle(a.id)} data-testid="attachment-restore">
                      {t('payments.ui.restore')}
                    </Button>
                  ) : (
                    <Tooltip label={t('payments.ui.removeFile', { name: a.name })}>
                      <ActionIcon size="sm" variant="subtle" color="red" onClick={() => toggle(a.id)} aria-label={t('payments.ui.removeFile', { name: a.name })} data-testid="attachment-delete">
                        <IconTrash size={15} />
                      </ActionIcon>
                    </Tooltip>
                  ))}
              </Group>
            );
          })}
          {added.map((f, i) => (
            <Group key={`${f.name}-${i}`} gap="xs" wrap="nowrap" data-testid="attachment-row" data-state="added">
              <IconPlus size={16} aria-hidden />
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {f.name}
              </Text>
              <ActionIcon size="sm" variant="subtle" onClick={() => setAdded((a) => a.filter((_, j) => j !== i))} aria-label={t('payments.ui.removeFile', { name: f.name })} data-testid="attachment-remove-new">
                <IconX size={15} />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      </Card>
      {!readOnly && (
        <Group justify="space-between">
          {mode === 'edit' ? (
            <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={remove} data-testid="transaction-delete">
              {t('common.delete')}
            </Button>
          ) : (
            <span />
          )}
          <Group gap="xs">
            <Button variant="default" onClick={back} data-testid="transaction-cancel">
              {t('common.cancel')}
            </Button>
            <Button onClick={() => void save()} loading={busy} data-testid="transaction-save">
              {t('common.save')}
            </Button>
          </Group>
        </Group>
      )}
    </Stack>
  );
}
