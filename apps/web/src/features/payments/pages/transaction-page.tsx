import { ActionIcon, Alert, Anchor, Button, Card, FileButton, Fieldset, Grid, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { TExpenseForm, TSelectOption, TTransactionType } from '@crm/contract';
import { AttachmentState } from '@crm/contract/payment-constants';
import { TRANSACTION_GROUPS, transactionFieldsOf, transactionLabelKey, type TTransactionFieldDescription } from '@crm/contract/transaction-fields';
import { IconArrowLeft, IconFile, IconPlus, IconTrash, IconX } from '../../../components/icons.ts';
import { UPLOAD_ACCEPT } from '../../../components/file-drop.tsx';
import { ApiError } from '../../../lib/api.ts';
import { showBanner, showBannerAfterNavigation } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useUploadLimits } from '../../../lib/use-upload-limits.ts';
import { FieldInput, type DateInputProps } from '../../../components/fields/field-input.tsx';
import { focusInvalidEntry } from '../../../components/fields/invalid-entry.ts';
import { toDraft, toWire, type Draft } from '../../../components/fields/field-values.ts';
import { DateField } from '../../../components/fields/date-field.tsx';
import { attachmentLink, deleteTransaction, paymentKeys, saveTransaction, transactionFormQuery, type TTransactionForm } from '../api/payments.ts';
import { ExpenseApprovalControl } from '../../../components/approvals/expense-approval.tsx';
import { carryForm, conflictMessage, mergeOnConflict, takeCarriedForm } from '../../../lib/conflict-merge.ts';
import { useChangeKeys } from '../../../lib/change-key.ts';
import { useFormLeaveGuard } from '../../../lib/unsaved-guard.tsx';
import { PageLoading } from '../../../components/page-loading.tsx';

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
    return <PageLoading />;
  return <TransactionForm key={`${q.data.updateFields.id}-${q.data.updateFields.version}`} type={type} mode={mode} form={q.data} readOnly={viewOnly || !q.data.canEdit} />;
}

type Existing = { id: number; name: string; state: number };
type Values = Record<string, Draft>;

/** The inputs' test ids the forms have always had (the rest are "transaction-<name>"). */
const TEST_IDS: Record<string, string> = { transactionDate: 'transaction-date', paymentMethod: 'transaction-method', categoryId: 'transaction-category', internalNotes: 'transaction-notes' };
const testIdOf = (name: string) => TEST_IDS[name] ?? `transaction-${name}`;
/** How wide an input of each type is on the form's grid (of 12). */
const SPAN: Record<TTransactionFieldDescription['type'], { base: number; sm: number }> = {
  money: { base: 12, sm: 4 },
  'date-time': { base: 12, sm: 8 },
  select: { base: 12, sm: 4 },
  date: { base: 6, sm: 4 },
  text: { base: 12, sm: 6 },
  textarea: { base: 12, sm: 12 },
};

/** Dates are typed as DD/MM/YYYY (DD.MM.YYYY in Russian) or picked from a calendar. */
const calendarDate = (p: DateInputProps) => (
  <DateField label={p.label} required={p.required} value={p.value} onChange={(v) => p.onChange(v)} error={p.error} disabled={p.disabled} data-testid={p.testId} />
);

/** The described values of the form as its inputs hold them. */
const toValues = (type: TTransactionType, f: TTransactionForm): Values =>
  Object.fromEntries(transactionFieldsOf(type).map((d) => [d.name, toDraft(d.type, (f.updateFields as Record<string, unknown>)[d.name])]));

/** A described value as form-data sends it: a text ("" when not set; a date without its time stays short, and the server says what is missing). */
function formDataText(d: TTransactionFieldDescription, draft: Draft, options: TSelectOption[]): string {
  const v = toWire(d.type, draft, options);
  return v == null ? '' : String(v);
}

/** What is handed to the form that opens on the other version after a 409 (lib/conflict-merge.ts). */
type Carried = { values: Values; deleted: number[]; added: File[] };

function TransactionForm({ type, mode, form, readOnly }: { type: TTransactionType; mode: 'create' | 'edit'; form: TTransactionForm; readOnly: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const carryKey = `${type}-${form.updateFields.id}`;
  const [carried] = useState(() => takeCarriedForm<Carried>(carryKey));
  const [values, setValues] = useState<Values>(() => carried?.values ?? toValues(type, form));
  const [existing, setExisting] = useState<Existing[]>(() =>
    form.attachments.map((a) => (carried?.deleted.includes(a.id) ? { ...a, state: AttachmentState.Deleted } : a)),
  );
  const [added, setAdded] = useState<File[]>(() => carried?.added ?? []);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const limits = useUploadLimits();
  const expense = type === 'expense';
  const u = form.updateFields;
  const fields = transactionFieldsOf(type);
  const lists = form.lists as Record<string, TSelectOption[]>;
  const optionsOf = (d: TTransactionFieldDescription) => (d.list ? (lists[d.list] ?? []) : []);
  const back = () => navigate(`/Payments/View/${u.accountId}`);
  // Typed, picked or struck out and not saved: leaving (Back, a link, a reload) asks first.
  const [loaded] = useState(() => JSON.stringify(toValues(type, form)));
  const leaveGuard = useFormLeaveGuard(!readOnly && (JSON.stringify(values) !== loaded || added.length > 0 || existing.some((a) => a.state === AttachmentState.Deleted)));

  const changeKeys = useChangeKeys();
  const save = async () => {
    if (busy) return;
    // A time box holding no time keeps the time before it: saving would drop what was typed.
    if (focusInvalidEntry()) return;
    setBusy(true);
    setError(null);
    const body = new FormData();
    if (mode === 'edit') {
      body.append('id', String(u.id));
      body.append('version', String(u.version));
    } else body.append('accountId', String(u.accountId));
    for (const d of fields) body.append(d.name, formDataText(d, values[d.name] ?? null, optionsOf(d)));
    body.append('attachments', JSON.stringify(existing.map((a) => ({ id: a.id, state: a.state }))));
    for (const f of added) body.append('files', f, f.name);
    try {
      // Saved again after a lost answer, the same content is the same change: no second payment.
      const saved = await saveTransaction(type, mode === 'edit' ? 'edit' : 'add', body, changeKeys.keyFor(body));
      changeKeys.renew();
      void client.invalidateQueries({ queryKey: paymentKeys.all });
      if (saved.approvalWithdrawn) showBannerAfterNavigation('warning', t('payments.ui.approvalWithdrawn'));
      else if (saved.approvalRequestCancelled) showBannerAfterNavigation('warning', t('payments.ui.approvalRequestCancelled'));
      else showBannerAfterNavigation('success', t(expense ? 'payments.ui.expenseSaved' : 'payments.ui.incomeSaved'));
      leaveGuard.release();
      back();
    } catch (e) {
      if (e instanceof ApiError && e.status === 409 && e.problem.current) {
        // Someone changed it meanwhile: the form opens on their version with what only this user
        // changed kept in it (and the files added or struck out), to be checked and saved again.
        // Where both changed a field, theirs is shown and named.
        const current = e.problem.current as TTransactionForm;
        const m = mergeOnConflict(toValues(type, form), values, toValues(type, current));
        const deleted = existing.filter((a) => a.state === AttachmentState.Deleted).map((a) => a.id);
        if (m.changed.length > m.lost.length || deleted.length > 0 || added.length > 0) carryForm<Carried>(carryKey, { values: m.next, deleted, added });
        client.setQueryData(paymentKeys.form(type, u.id, null), current);
        const kept = { changed: deleted.length || added.length ? [...m.changed, 'attachments'] : m.changed, lost: m.lost };
        showBanner('warning', conflictMessage(t, e.problem.title, kept, (k) => t(transactionLabelKey(k))));
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
          leaveGuard.release();
          back();
        } catch (e) {
          setError(describeError(e).message);
        }
      },
    });

  // The new files are sent with the form on save: checked now against the server's limits, with
  // those added before, so a file that would be refused is never sent (and nothing typed is lost).
  const resetPick = useRef<() => void>(null);
  const pick = async (files: File[]) => {
    // The same file may be chosen again (after making it smaller, or removing it from the list).
    resetPick.current?.();
    if (!files.length) return;
    const check = await limits.check(files, { already: added });
    setError(check.message('added'));
    setAdded((a) => [...a, ...check.accepted]);
  };
  const toggle = (id: number) => setExisting((list) => list.map((a) => (a.id === id ? { ...a, state: a.state === AttachmentState.Deleted ? AttachmentState.Existing : AttachmentState.Deleted } : a)));
  const input = (d: TTransactionFieldDescription) => (
    <Grid.Col key={d.name} span={SPAN[d.type]} data-field={d.name}>
      <FieldInput
        type={d.type}
        label={t(transactionLabelKey(d.name))}
        value={values[d.name] ?? null}
        onChange={(v) => {
          setValues((x) => ({ ...x, [d.name]: v }));
          // What was said of a value goes once it is changed; of a period, once either of its days is.
          const said = d.name === 'startDate' || d.name === 'endDate' ? ['startDate', 'endDate'] : [d.name];
          if (said.some((k) => errors[k])) setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !said.includes(k))));
        }}
        error={errors[d.name]}
        options={optionsOf(d)}
        required={d.required}
        clearable={d.type === 'select' ? !d.required && d.default === undefined : undefined}
        maxLength={d.max}
        minRows={2}
        disabled={readOnly}
        autoFocus={false}
        renderDate={calendarDate}
        testId={testIdOf(d.name)}
        timeTestId="transaction-time"
      />
    </Grid.Col>
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
        <Alert color="red" title={t('payments.ui.error')} withCloseButton onClose={() => setError(null)} data-testid="transaction-form-error" className="pre-line">
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
      {TRANSACTION_GROUPS.map((g) => {
        const shown = fields.filter((d) => d.group === g);
        return shown.length ? (
          <Fieldset key={g} legend={t(`payments.group.${g}`)} data-testid={`transaction-group-${g}`}>
            <Grid gap="sm">{shown.map(input)}</Grid>
          </Fieldset>
        ) : null;
      })}
      <Card withBorder data-testid="transaction-attachments">
        <Stack gap="xs">
          <Group justify="space-between">
            <Text fw={600}>{t('payments.ui.attachments')}</Text>
            {!readOnly && (
              <FileButton multiple accept={UPLOAD_ACCEPT} onChange={(files) => void pick(files)} resetRef={resetPick}>
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
                  {...attachmentLink(a)}
                  size="sm"
                  td={deleted ? 'line-through' : undefined}
                  c={deleted ? 'dimmed' : undefined}
                  style={{ overflowWrap: 'anywhere', textAlign: 'left' }}
                  data-testid="attachment-link"
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
