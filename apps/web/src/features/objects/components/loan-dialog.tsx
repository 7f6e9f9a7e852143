import { Alert, Anchor, Button, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { confirmAction } from '../../../components/confirm-action.tsx';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Trans } from 'react-i18next';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import type { TObjectKeyAnswer, TObjectKeyLoan } from '@crm/contract';
import { IconAlertTriangle, IconTrash } from '../../../components/icons.ts';
import { ApiError } from '../../../lib/api.ts';
import { showBanner } from '../../../lib/banner.ts';
import { reportError } from '../../../lib/errors.ts';
import { AccountPicker } from '../../../components/account-picker.tsx';
import { DateField } from '../../../components/fields/date-field.tsx';
import { focusInvalidEntry } from '../../../components/fields/invalid-entry.ts';
import { conflictMessage, mergeOnConflict } from '../../../lib/conflict-merge.ts';
import { useChangeKeys } from '../../../lib/change-key.ts';
import { useGuardedMutation } from '../../../lib/use-guarded-mutation.ts';
import { formatDate } from '../../../lib/format.ts';
import { accountPath } from '../../../components/account-columns.tsx';
import { deleteKeyLoan, saveKeyLoan } from '../api/object-keys.ts';

/** The loan's line: "Given to <holder> on <date> · back on <date>". */
export function LoanLine({ loan: l }: { loan: TObjectKeyLoan }) {
  const { t } = useTranslation();
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      <Trans
        i18nKey={l.givenAway ? 'objectkeys.history.given' : 'objectkeys.history.givenNoDate'}
        values={{ holder: l.account ?? t('objectkeys.state.noHolder'), date: formatDate(l.givenAway) }}
        // Underlined: a link inside a sentence is told apart by more than its colour.
        components={{ holder: l.accountId != null ? <Anchor component={Link} to={accountPath(l.accountId)} underline="always" inherit data-testid="key-loan-holder" /> : <span /> }}
      />
      {' · '}
      <span data-testid="key-loan-back">
        {/* Without a given-away date, the received date is only that: the key's own two fields, not a return. */}
        {l.received ? t(l.givenAway ? 'objectkeys.history.back' : 'objectkeys.history.receivedOn', { date: formatDate(l.received) }) : t('objectkeys.history.notBack')}
      </span>
    </Text>
  );
}

/**
 * The key's loans under its form, newest first, each with Correct: a loan typed wrong (holder,
 * given-away or return date) is corrected on its own, or deleted when it was recorded by mistake.
 */
type TLoanForm = { accountId: number | null; account: string; givenAway: string | null; received: string | null };
const loanForm = (l: TObjectKeyLoan): TLoanForm => ({ accountId: l.accountId, account: l.account ?? '', givenAway: l.givenAway, received: l.received });

/**
 * Correct a loan: who had the key, given on, back on (empty: not back yet). Saved with the loan's
 * version and an Idempotency-Key (Save pressed again after a lost answer is the same change). The
 * server says what is wrong under the field (back before given, a date after today). The current
 * loan says that the key changes with it. Delete, confirmed, is for a loan recorded by mistake.
 */
type LoanDialogProps = {
  loan: TObjectKeyLoan;
  isCurrent: boolean;
  onClose: () => void;
  onDone: (next: TObjectKeyAnswer) => void;
  onConflict: (next: TObjectKeyAnswer) => void;
};

export function LoanDialog(props: LoanDialogProps) {
  const { t } = useTranslation();
  const { isCurrent, onClose } = props;
  const { form, set, errors, notice, changed, save, remove, submit, confirmDelete } = useLoanForm(props);
  return (
    <Modal
      opened
      onClose={onClose}
      closeOnEscape={!changed}
      closeOnClickOutside={!changed}
      title={t('objectkeys.loan.title')}
      size="md"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={submit} noValidate data-testid="loan-form">
        <Stack gap="sm">
          {notice && (
            <Alert color="yellow" icon={<IconAlertTriangle size={18} />} role="status" data-testid="loan-conflict">
              {notice}
            </Alert>
          )}
          {isCurrent && (
            <Text size="sm" c="dimmed" data-testid="loan-current-note">
              {t('objectkeys.loan.currentNote')}
            </Text>
          )}
          <Stack gap={2}>
            <AccountPicker
              key={form.accountId ?? 'none'}
              label={t('objectkeys.loan.holder')}
              filter={0}
              value={form.accountId != null ? { id: form.accountId, text: form.account } : null}
              onChange={(v) => set({ accountId: v?.id ?? null, account: v?.text ?? '' })}
              testId="loan-account"
              autoFocus
              error={errors.accountId}
            />
          </Stack>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <DateField label={t('objectkeys.loan.givenAway')} value={form.givenAway} onChange={(v) => set({ givenAway: v })} error={errors.givenAway} data-testid="loan-givenaway" />
            <DateField
              label={t('objectkeys.loan.received')}
              description={t('objectkeys.loan.receivedHint')}
              value={form.received}
              onChange={(v) => set({ received: v })}
              error={errors.received}
              data-testid="loan-received"
            />
          </SimpleGrid>
          <Group justify="space-between" gap="xs">
            <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={confirmDelete} loading={remove.isPending} disabled={save.isPending} data-testid="loan-delete">
              {t('objectkeys.loan.delete')}
            </Button>
            <Group gap="xs">
              <Button variant="default" onClick={onClose} disabled={save.isPending || remove.isPending} data-testid="loan-cancel">
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={save.isPending} disabled={remove.isPending} data-testid="loan-save">
                {t('common.save')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The dialog's form, its save and delete, and the other version's merge. */
function useLoanForm({ loan, isCurrent, onClose, onDone, onConflict }: LoanDialogProps) {
  const { t } = useTranslation();
  const [base, setBase] = useState(loan);
  const [form, setForm] = useState<TLoanForm>(() => loanForm(loan));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<string | null>(null);
  const set = (patch: Partial<TLoanForm>) => setForm((f) => ({ ...f, ...patch }));
  const changed = JSON.stringify(form) !== JSON.stringify(loanForm(base));
  const changeKeys = useChangeKeys();

  /** Someone else changed the loan first: their version, with what only this user changed on it. */
  const conflict = (e: unknown): boolean => {
    if (!(e instanceof ApiError && e.status === 409 && e.problem.current)) return false;
    const current = e.problem.current as TObjectKeyAnswer;
    const now = current.history.find((l) => l.id === loan.id);
    if (now) {
      const m = mergeOnConflict(loanForm(base), form, loanForm(now));
      setBase(now);
      setForm(m.next);
      setErrors({});
      const label = (k: string) => t(k === 'account' || k === 'accountId' ? 'objectkeys.loan.holder' : `objectkeys.loan.${k}`);
      setNotice(conflictMessage(t, t('objectkeys.loan.conflict'), m, label));
    }
    onConflict(current);
    return true;
  };
  const save = useGuardedMutation({
    // Its errors are said here: under the field, in the dialog (a 409), or as a banner (anything else).
    meta: { handlesErrors: true },
    mutationFn: () => {
      const body = { id: base.id, version: base.version, accountId: form.accountId, givenAway: form.givenAway, received: form.received };
      return saveKeyLoan(body, changeKeys.keyFor(body));
    },
    onSuccess: (next) => {
      changeKeys.renew();
      showBanner('success', t('objectkeys.loan.saved'));
      onDone(next);
    },
    onError: (e) => {
      if (conflict(e)) return;
      if (e instanceof ApiError && e.status === 400 && Object.keys(e.fieldErrors).length) {
        setErrors(e.fieldErrors);
        return;
      }
      reportError(e);
    },
  });
  const remove = useMutation({
    meta: { handlesErrors: true },
    mutationFn: () => deleteKeyLoan(base.id, base.version, changeKeys.keyFor({ delete: base.id, version: base.version })),
    onSuccess: (next) => {
      changeKeys.renew();
      showBanner('success', t('objectkeys.loan.deleted'));
      onDone(next);
    },
    onError: (e) => {
      if (!conflict(e)) reportError(e);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (focusInvalidEntry(e.currentTarget as HTMLFormElement)) return;
    if (!changed) {
      onClose();
      return;
    }
    setNotice(null);
    save.mutate();
  };
  const confirmDelete = () =>
    confirmAction(t, {
      title: t('objectkeys.loan.deleteConfirm'),
      text: (
        <Stack gap="xs">
          <LoanLine loan={base} />
          <Text size="sm">{t(isCurrent ? 'objectkeys.loan.deleteCurrentNote' : 'objectkeys.loan.deleteNote')}</Text>
        </Stack>
      ),
      testId: 'loan-delete-confirm',
      onConfirm: () => remove.mutate(),
    });

  return { form, set, errors, notice, changed, save, remove, submit, confirmDelete };
}
