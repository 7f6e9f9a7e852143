import { ActionIcon, Alert, Anchor, Button, Card, FileButton, Fieldset, Grid, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { TExpenseForm, TSelectOption, TTransactionType } from '@crm/contract';
import { AttachmentState } from '@crm/contract/payment-constants';
import { TRANSACTION_GROUPS, transactionFieldsOf, transactionLabelKey, type TTransactionFieldDescription } from '@crm/contract/transaction-fields';
import { href, PAYMENT } from '@crm/contract/resources';
import { IconArrowLeft, IconFile, IconPlus, IconTrash, IconX } from '../../../components/icons.ts';
import { UPLOAD_ACCEPT } from '../../../components/file-drop.tsx';
import { describeError } from '../../../lib/errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useUploadLimits } from '../../../lib/use-upload-limits.ts';
import { FieldInput, type DateInputProps } from '../../../components/fields/field-input.tsx';
import { toDraft, toWire, type Draft } from '../../../components/fields/field-values.ts';
import { DateField } from '../../../components/fields/date-field.tsx';
import { attachmentLink, deleteTransaction, paymentKeys, saveTransaction, transactionFormQuery, type TTransactionForm } from '../api/payments.ts';
import { ExpenseApprovalControl } from '../../../components/approvals/expense-approval.tsx';
import { mergeOnConflict } from '../../../lib/conflict-merge.ts';
import { RecordLoad, saveRecord, useDeleteRecord, useRecordForm, type RecordForm } from '../../../kit/record.tsx';

export const IncomePage = () => <TransactionPage type="income" />;
export const ExpensePage = () => <TransactionPage type="expense" />;

/**
 * /Payments/AddIncome/{accountId}, /Payments/EditIncome/{id}, /Payments/View/Income/{id},
 * /Payments/AddExpense/{accountId}, /Payments/EditExpense/{id}. Its modes (spec 4): undefined (no id
 * and no account: the form stays hidden, as after a failed load, which shows its error), create
 * (for an account), edit (a stored one).
 */
export function TransactionPage({ type }: { type: TTransactionType }) {
  const { t } = useTranslation();
  const params = useParams();
  const { pathname } = useLocation();
  const id = params.id ? Number(params.id) : null;
  const accountId = params.accountId ? Number(params.accountId) : null;
  const valid = (id == null || (Number.isInteger(id) && id > 0)) && (accountId == null || (Number.isInteger(accountId) && accountId > 0)) && (id != null || accountId != null);
  const mode = id != null ? 'edit' : 'create';
  const viewOnly = pathname.toLowerCase().startsWith('/payments/view/');
  const q = useQuery({ ...transactionFormQuery(type, id, accountId), enabled: valid });
  return (
    <RecordLoad
      q={q}
      valid={valid}
      mode={mode}
      testId="transaction"
      failed={(message) => (
        <Alert color="red" title={t('payments.ui.error')} data-testid="transaction-error">
          {message ?? t('payments.ui.noTransaction')}
        </Alert>
      )}
    >
      {(form) => <TransactionForm key={`${form.updateFields.id}-${form.updateFields.version}`} type={type} mode={mode} record={form} readOnly={viewOnly || !form.canEdit} />}
    </RecordLoad>
  );
}

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

/** A select's choices: its list's, or (the owner's property) the account's own properties the form's answer names. */
const fieldOptions = (d: TTransactionFieldDescription, lists: Record<string, TSelectOption[]>, objects: TSelectOption[]): TSelectOption[] =>
  d.list ? (lists[d.list] ?? []) : d.references === 'objects' ? objects : [];

/** The form: the described values, the stored files struck out, the files added (all carried to the other version after a 409). */
type Carried = { values: Values; deleted: number[]; added: File[] };

type FormProps = { type: TTransactionType; mode: 'create' | 'edit'; record: TTransactionForm; readOnly: boolean };

function TransactionForm({ type, mode, record, readOnly }: FormProps) {
  const { t } = useTranslation();
  const rf = useRecordForm<TTransactionForm, Carried>({
    record,
    mode: readOnly ? 'view' : mode,
    carryKey: `${type}-${record.updateFields.id}`,
    toForm: (f) => ({ values: toValues(type, f), deleted: [], added: [] }),
  });
  const { form, errors, setErrors, error, setError, busy } = rf;
  const { save, remove, back } = useTransactionActions(type, mode, record, rf);
  const expense = type === 'expense';
  const u = record.updateFields;
  const lists = record.lists as Record<string, TSelectOption[]>;
  const optionsOf = (d: TTransactionFieldDescription) => fieldOptions(d, lists, record.objects);
  const input = (d: TTransactionFieldDescription) => (
    <Grid.Col key={d.name} span={SPAN[d.type]} data-field={d.name}>
      <FieldInput
        type={d.type}
        label={t(transactionLabelKey(d.name))}
        value={form.values[d.name] ?? null}
        onChange={(v) => {
          rf.setForm((f) => ({ ...f, values: { ...f.values, [d.name]: v } }));
          // What was said of a value goes once it is changed; of a period, once either of its days is.
          const said = d.name === 'startDate' || d.name === 'endDate' ? ['startDate', 'endDate'] : [d.name];
          if (said.some((k) => errors[k])) setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !said.includes(k))));
        }}
        error={errors[d.name]}
        options={optionsOf(d)}
        description={d.references === 'objects' && !record.objects.length ? t('payments.ui.noObjects') : undefined}
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
  const fields = transactionFieldsOf(type);
  return (
    <Stack gap="md" maw={900} data-testid="transaction-page" data-mode={mode} data-type={type}>
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Title order={2}>
            {title}
            {record.displayFields.referenceNumber && <Text span c="dimmed" inherit>{` #${record.displayFields.referenceNumber}`}</Text>}
          </Title>
          <Anchor component={Link} to={href(PAYMENT.screens.statement, { id: u.accountId })} data-testid="transaction-account">
            {record.displayFields.accountDisplayName}
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
      {record.confirmedByClientDate && (
        <Alert color="green" data-testid="transaction-approved">
          {t('payments.ui.approvedOn', { date: formatDateTime(record.confirmedByClientDate) })}
          {expense && mode === 'edit' && !readOnly && <Text size="sm">{t('payments.ui.approvedEditHint')}</Text>}
        </Alert>
      )}
      {expense && mode === 'edit' && !readOnly && !record.confirmedByClientDate && u.id !== null && (
        <ExpenseApprovalControl transactionId={u.id} approvalRequestedOn={(record as TExpenseForm).approvalRequestedOn} confirmedByClientDate={null} />
      )}
      {TRANSACTION_GROUPS.map((g) => {
        const shown = fields.filter((d) => d.group === g);
        return shown.length ? (
          <Fieldset key={g} legend={t(`payments.group.${g}`)} data-testid={`transaction-group-${g}`}>
            <Grid gap="sm">{shown.map(input)}</Grid>
          </Fieldset>
        ) : null;
      })}
      <TransactionFiles record={record} rf={rf} readOnly={readOnly} />
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

/** Save (form-data with the files, the version guarded, a conflict merged), Delete, and back to the statement. */
function useTransactionActions(type: TTransactionType, mode: 'create' | 'edit', record: TTransactionForm, rf: RecordForm<Carried>) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const expense = type === 'expense';
  const u = record.updateFields;
  const lists = record.lists as Record<string, TSelectOption[]>;
  const statement = href(PAYMENT.screens.statement, { id: u.accountId });
  const back = () => navigate(statement);
  const { form } = rf;
  const save = () =>
    saveRecord(
      rf,
      {
        body: () => {
          const body = new FormData();
          if (mode === 'edit') {
            body.append('id', String(u.id));
            body.append('version', String(u.version));
          } else body.append('accountId', String(u.accountId));
          for (const d of transactionFieldsOf(type)) body.append(d.name, formDataText(d, form.values[d.name] ?? null, fieldOptions(d, lists, record.objects)));
          body.append('attachments', JSON.stringify(record.attachments.map((a) => ({ id: a.id, state: form.deleted.includes(a.id) ? AttachmentState.Deleted : a.state }))));
          for (const f of form.added) body.append('files', f, f.name);
          return body;
        },
        // Saved again after a lost answer, the same content is the same change: no second payment.
        send: (body: FormData, changeKey) => saveTransaction(type, mode === 'edit' ? 'edit' : 'add', body, changeKey),
        saved: (saved) => {
          void client.invalidateQueries({ queryKey: paymentKeys.all });
          const banner = saved.approvalWithdrawn
            ? (['warning', t('payments.ui.approvalWithdrawn')] as const)
            : saved.approvalRequestCancelled
              ? (['warning', t('payments.ui.approvalRequestCancelled')] as const)
              : (['success', t(expense ? 'payments.ui.expenseSaved' : 'payments.ui.incomeSaved')] as const);
          return { to: statement, banner };
        },
        // Someone changed it meanwhile: the form opens on their version with what only this user
        // changed kept in it (and the files added or struck out), to be checked and saved again.
        // Where both changed a field, theirs is shown and named.
        conflict: {
          current: (c) => c as TTransactionForm,
          merge: (current) => {
            const m = mergeOnConflict(rf.loaded.values, form.values, toValues(type, current));
            const files = form.deleted.length > 0 || form.added.length > 0;
            return { next: { ...form, values: m.next }, changed: files ? [...m.changed, 'attachments'] : m.changed, lost: m.lost, kept: m.changed.length > m.lost.length || files };
          },
          store: (current) => client.setQueryData(paymentKeys.form(type, u.id, null), current),
          label: (k) => t(transactionLabelKey(k)),
        },
        invalid: (e) => rf.setError(describeError(e).message),
      },
      t,
      navigate,
    );
  const confirmDelete = useDeleteRecord();
  const remove = () =>
    confirmDelete({
      title: t(expense ? 'payments.ui.deleteExpense' : 'payments.ui.deleteIncome'),
      text: t('payments.ui.deleteHint'),
      run: () => deleteTransaction(u.id!),
      refresh: [paymentKeys.all],
      done: { banner: ['success', t(expense ? 'payments.ui.expenseDeleted' : 'payments.ui.incomeDeleted')], to: statement },
      onError: rf.setError,
      release: rf.leaveGuard.release,
    });
  return { save, remove, back };
}

/** The attachments: the stored ones struck out and restored, new ones added (checked against the server's limits) and removed. */
function TransactionFiles({ record, rf, readOnly }: { record: TTransactionForm; rf: RecordForm<Carried>; readOnly: boolean }) {
  const { t } = useTranslation();
  const limits = useUploadLimits();
  const { form, setForm } = rf;
  // The new files are sent with the form on save: checked now against the server's limits, with
  // those added before, so a file that would be refused is never sent (and nothing typed is lost).
  const resetPick = useRef<() => void>(null);
  const pick = async (files: File[]) => {
    // The same file may be chosen again (after making it smaller, or removing it from the list).
    resetPick.current?.();
    if (!files.length) return;
    const check = await limits.check(files, { already: form.added });
    rf.setError(check.message('added'));
    setForm((f) => ({ ...f, added: [...f.added, ...check.accepted] }));
  };
  const toggle = (id: number) => setForm((f) => ({ ...f, deleted: f.deleted.includes(id) ? f.deleted.filter((x) => x !== id) : [...f.deleted, id] }));
  return (
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
        {record.attachments.length === 0 && form.added.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('payments.ui.noAttachments')}
          </Text>
        )}
        {record.attachments.map((a) => {
          const deleted = form.deleted.includes(a.id);
          return (
            <Group key={a.id} gap="xs" wrap="nowrap" data-testid="attachment-row" data-state={deleted ? 'deleted' : 'existing'}>
              <IconFile size={16} aria-hidden />
              <Anchor {...attachmentLink(a)} size="sm" td={deleted ? 'line-through' : undefined} c={deleted ? 'dimmed' : undefined} style={{ overflowWrap: 'anywhere', textAlign: 'left' }} data-testid="attachment-link">
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
        {form.added.map((f, i) => (
          <Group key={`${f.name}-${i}`} gap="xs" wrap="nowrap" data-testid="attachment-row" data-state="added">
            <IconPlus size={16} aria-hidden />
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {f.name}
            </Text>
            <ActionIcon size="sm" variant="subtle" onClick={() => setForm((x) => ({ ...x, added: x.added.filter((_, j) => j !== i) }))} aria-label={t('payments.ui.removeFile', { name: f.name })} data-testid="attachment-remove-new">
              <IconX size={15} />
            </ActionIcon>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
