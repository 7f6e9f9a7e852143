import { ActionIcon, Alert, Anchor, Box, Button, Group, Input, Modal, Paper, SimpleGrid, Skeleton, Stack, Text, Textarea, Title, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent, type MutableRefObject, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { TObjectKey, TObjectKeyAnswer, TObjectKeyLoan } from '@crm/contract';
import { RecordNotFound } from '../../../components/record-not-found.tsx';
import { IconAlertTriangle, IconPencil, IconTrash } from '../../../components/icons.ts';
import { api, ApiError } from '../../../lib/api.ts';
import { bannerStore, clearBanner, showBanner, showBannerAfterNavigation, type Banner } from '../../../lib/banner.ts';
import { reportError } from '../../../lib/errors.ts';
import { JUST_READ_MS } from '../../../lib/freshness.ts';
import { AccountPicker } from '../../../components/account-picker.tsx';
import { DateField } from '../../../components/fields/date-field.tsx';
import { deleteKeyLoan, deleteObjectKey, keyHeld, keyKeys, keyOut, objectKeyQuery, saveKeyLoan, saveObjectKey, type TKeyEdit } from '../api/object-keys.ts';
import { SearchPicker, type Picked } from '../../../components/search-picker.tsx';
import { headingTitleField } from '../object-title.ts';
import { IconEraser } from '../components/search-icons.ts';
import { focusInvalidEntry } from '../../../components/fields/invalid-entry.ts';
import { carryForm, conflictMessage, mergeOnConflict, takeCarriedForm } from '../../../lib/conflict-merge.ts';
import { useChangeKeys } from '../../../lib/change-key.ts';
import { agencyToday } from '../../../lib/agency-clock.ts';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import { keyStateLine } from '../key-state.ts';
import { accountPath } from '../../../components/account-columns.tsx';
import { useDialogFrom } from '../../../lib/use-dialog-from.ts';
import { useFormLeaveGuard } from '../../../lib/unsaved-guard.tsx';
import { searchObjectsByRef } from '../../../lib/pickers.ts';

type TKeyForm = {
  objectId: number | null;
  objectReferenceNumber: string;
  accountId: number | null;
  account: string;
  received: string | null;
  givenAway: string | null;
  description: string;
};

const toForm = (k: TObjectKey): TKeyForm => ({
  objectId: k.objectId,
  objectReferenceNumber: k.objectReferenceNumber,
  accountId: k.accountId,
  account: k.account ?? '',
  received: k.received,
  givenAway: k.givenAway,
  description: k.description ?? '',
});

/** The inputs of the fields the server may refuse, in the form's order (the first takes the focus). */
const FIELD_TEST_IDS = { objectId: 'key-object-picker', accountId: 'key-account', received: 'key-received', givenAway: 'key-givenaway', description: 'key-description' } as const;
const FIELD_INPUTS = Object.keys(FIELD_TEST_IDS) as (keyof typeof FIELD_TEST_IDS)[];

/** /ObjectKeys/{id} edits a key; /ObjectKeys/new?objectId= adds one to a property. */
export function ObjectKeyPage() {
  const { id: idParam = '' } = useParams();
  const [params] = useSearchParams();
  if (idParam.toLowerCase() === 'new') {
    const objectId = Number(params.get('objectId'));
    return <KeyForm key="new" initial={null} objectId={Number.isInteger(objectId) && objectId > 0 ? objectId : null} />;
  }
  const id = Number(idParam);
  if (!Number.isInteger(id) || id < 1 || id > 2147483647) return <RecordNotFound testId="key-not-found" />;
  return <ExistingKey id={id} />;
}

function ExistingKey({ id }: { id: number }) {
  // The route asked for it while this code loaded (app/router.tsx): that read is this opening's.
  const q = useQuery({ ...objectKeyQuery(id), staleTime: JUST_READ_MS });
  const client = useQueryClient();
  // What the key form holds now, for a loan's correction that changes the key (a new version).
  const typed = useRef<(() => TKeyForm) | null>(null);
  if (q.isPending) return <Skeleton height={420} maw={720} />;
  if (q.isError) {
    if (q.error instanceof ApiError && q.error.status === 404) return <RecordNotFound testId="key-not-found" />;
    return <ErrorBox error={q.error} />;
  }
  /**
   * A loan corrected or deleted: the key as the server answered it. When its newest loan changed
   * the key, the form opens on the new version with what was typed in it and not saved yet.
   */
  const keyChanged = (next: TObjectKeyAnswer) => {
    const before = q.data;
    const form = typed.current?.();
    if (next.version !== before.version && form) {
      const m = mergeOnConflict(toForm(before), form, toForm(next));
      if (m.changed.length) carryForm(`key-${id}`, m.next);
    }
    client.setQueryData(keyKeys.edit(id), next);
    void client.invalidateQueries({ queryKey: ['objectKeys', 'list'] });
    void client.invalidateQueries({ queryKey: ['object'] });
  };
  return (
    <Stack gap="md" maw={720}>
      <KeyForm key={`${id}:${q.data.version}`} initial={q.data} objectId={q.data.objectId} typed={typed} />
      <KeyHistory keyAnswer={q.data} onKeyChanged={keyChanged} />
    </Stack>
  );
}

function ErrorBox({ error }: { error: unknown }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" icon={<IconAlertTriangle size={18} />} maw={720}>
      {error instanceof Error ? error.message : t('errors.internal')}
    </Alert>
  );
}

function KeyForm({ initial, objectId, typed }: { initial: TObjectKeyAnswer | null; objectId: number | null; typed?: MutableRefObject<(() => TKeyForm) | null> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [key, setKey] = useState<TObjectKeyAnswer | null>(initial);
  // Lend again: the next save starts a new loan (decision 014), and needs who takes the key.
  const [newLoan, setNewLoan] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const carryKey = `key-${initial?.id}`;
  const [form, setForm] = useState<TKeyForm>(
    () =>
      (initial && takeCarriedForm<TKeyForm>(carryKey)) ??
      (initial ? toForm(initial) : { objectId, objectReferenceNumber: '', accountId: null, account: '', received: null, givenAway: null, description: '' }),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  // The property picked for a new key, named as the deal form's picker names it (number, title, owner).
  const [picked, setPicked] = useState<Picked>(null);
  const saving = useRef(false);
  // The banner a refused save put up for a field the form does not show (the property's link): it
  // goes when that field is changed or a save succeeds, as the error under a field does.
  const fieldBanner = useRef<Banner>(null);
  const dropFieldBanner = () => {
    if (fieldBanner.current && bannerStore.get() === fieldBanner.current) clearBanner();
    fieldBanner.current = null;
  };
  const clearErrors = () => {
    setErrors({});
    dropFieldBanner();
  };
  /** A change of fields: what the server said about them is no longer about what they hold. */
  const set = (patch: Partial<TKeyForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    const said = (Object.keys(patch) as (keyof TKeyForm)[]).filter((k) => errors[k] && patch[k] !== form[k]);
    if (!said.length) return;
    const left = Object.fromEntries(Object.entries(errors).filter(([k]) => !(said as string[]).includes(k)));
    setErrors(left);
    if (!Object.keys(left).length) dropFieldBanner();
  };
  if (typed) typed.current = () => form;
  const sameDate = !!form.received && !!form.givenAway && form.received === form.givenAway;
  const back = () => navigate(form.objectId && !initial && objectId ? `/Objects/View/${objectId}` : '/ObjectKeys');
  // What was typed and not saved: leaving (Back, a link, a reload) asks first. The property's
  // number shown beside it is filled in by the form itself, so it does not count.
  const edited = (f: TKeyForm) => JSON.stringify([f.objectId, f.accountId, f.received, f.givenAway, f.description]);
  const [loaded] = useState(() => edited(initial ? toForm(initial) : { objectId, objectReferenceNumber: '', accountId: null, account: '', received: null, givenAway: null, description: '' }));
  const leaveGuard = useFormLeaveGuard(edited(form) !== loaded);

  const changeKeys = useChangeKeys();
  const save = useMutation({
    // Saved again after a lost answer, the same content is the same change: no second key.
    // Key returned saves and stays (`stay`): the form shows the key back, its loan in the history.
    mutationFn: ({ body }: { body: TKeyEdit; stay?: boolean }) => saveObjectKey(body, changeKeys.keyFor(body)),
    // Its errors are said here: under their field, or as a banner the form takes back (below).
    meta: { handlesErrors: true },
    onSettled: () => {
      saving.current = false;
    },
    onSuccess: (saved, { stay }) => {
      changeKeys.renew();
      clearErrors();
      client.setQueryData(keyKeys.edit(saved.id), saved);
      void client.invalidateQueries({ queryKey: ['objectKeys', 'list'] });
      void client.invalidateQueries({ queryKey: ['object'] });
      if (stay) {
        showBanner('success', t('objectkeys.returnedSaved'));
        return;
      }
      showBannerAfterNavigation('success', t('objectkeys.saved'));
      leaveGuard.release();
      back();
    },
    onError: (e) => {
      if (e instanceof ApiError && e.status === 409 && e.problem.current) {
        // Someone else saved first: their version in the form, with what only this user changed on it.
        const current = e.problem.current as TObjectKeyAnswer;
        const m = mergeOnConflict(initial ? toForm(initial) : form, form, toForm(current));
        if (m.changed.length > m.lost.length) carryForm(carryKey, m.next);
        client.setQueryData(keyKeys.edit(current.id), current);
        setKey(current);
        setForm(m.next);
        clearErrors();
        const label = (k: string) => t(k === 'account' || k === 'accountId' ? 'objectkeys.givenTo' : k === 'objectId' || k === 'objectReferenceNumber' ? 'objectkeys.object' : `objectkeys.${k}`);
        showBanner('warning', conflictMessage(t, t('objectkeys.conflict'), m, label));
        return;
      }
      if (e instanceof ApiError && e.status === 400 && Object.keys(e.fieldErrors).length) {
        // Said once, under the field, which takes the focus (as the loan's dialog does). Only a
        // field the form does not show is said in the banner.
        setErrors(e.fieldErrors);
        dropFieldBanner();
        const first = FIELD_INPUTS.find((f) => e.fieldErrors[f]);
        const input = first && formRef.current?.querySelector<HTMLElement>(`[data-testid="${FIELD_TEST_IDS[first]}"]`);
        if (input) input.focus();
        else {
          reportError(e);
          fieldBanner.current = bannerStore.get();
        }
        return;
      }
      reportError(e);
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteObjectKey(key!.id),
    onSuccess: () => {
      client.removeQueries({ queryKey: keyKeys.edit(key!.id) });
      void client.invalidateQueries({ queryKey: ['objectKeys', 'list'] });
      void client.invalidateQueries({ queryKey: ['object'] });
      showBannerAfterNavigation('success', t('objectkeys.deleted'));
      leaveGuard.release();
      navigate('/ObjectKeys');
    },
    onError: reportError,
  });

  const bodyOf = (f: TKeyForm): TKeyEdit => ({
    ...(key ? { id: key.id, version: key.version } : {}),
    objectId: f.objectId!,
    accountId: f.accountId,
    received: f.received,
    givenAway: f.givenAway,
    description: f.description.trim() || null,
    ...(newLoan ? { newLoan: true } : {}),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // A double click submits twice before the button shows it is busy: one key, not two.
    if (saving.current || focusInvalidEntry(e.currentTarget as HTMLFormElement)) return;
    if (!form.objectId) {
      setErrors({ objectId: t('objectkeys.objectRequired') });
      return;
    }
    if (newLoan && form.accountId == null) {
      setErrors({ accountId: t('objectkeys.lendHolderRequired') });
      formRef.current?.querySelector<HTMLInputElement>('[data-testid="key-account"]')?.focus();
      return;
    }
    saving.current = true;
    save.mutate({ body: bodyOf(form) });
  };
  /**
   * Key returned: received today, saved at once. Back the day it went out, the given-away date is
   * cleared (the spec's warning asks for one of two equal dates to go): the loan keeps both.
   */
  const returned = () => {
    if (saving.current || !form.objectId || focusInvalidEntry(formRef.current ?? undefined)) return;
    const today = agencyToday();
    const next = { ...form, received: today, givenAway: form.givenAway === today ? null : form.givenAway };
    setForm(next);
    saving.current = true;
    save.mutate({ body: bodyOf(next), stay: true });
  };
  /** Lend again: a new loan from today; the user picks who takes the key and saves. */
  const lendAgain = () => {
    setForm((f) => ({ ...f, accountId: null, account: '', givenAway: agencyToday(), received: null }));
    setNewLoan(true);
    clearErrors();
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLInputElement>('[data-testid="key-account"]')?.focus());
  };
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t('objectkeys.delete'),
      children: <Text size="sm">{t('objectkeys.deleteConfirm', { ref: key?.objectReferenceNumber ?? '' })}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete' } as Record<string, unknown>,
      onConfirm: () => remove.mutate(),
    });

  const ref = key?.objectReferenceNumber ?? form.objectReferenceNumber;
  // Back in the office, the holder the key keeps is who had it last, not who has it (decision 014
  // keeps them on the key and in its loan): the field says so, as the line above it does.
  const holderLabel = t(!newLoan && form.accountId != null && keyHeld(form) ? 'objectkeys.lastGivenTo' : 'objectkeys.givenTo');
  return (
    <Paper withBorder p="md" maw={720} data-testid="key-form">
      <form onSubmit={submit} noValidate ref={formRef}>
        <Stack gap="md">
          <Group justify="space-between" align="center">
            <Title order={2}>{key ? t('objectkeys.titleEdit', { ref }) : t('objectkeys.titleNew')}</Title>
            {key && (
              <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={confirmDelete} loading={remove.isPending} data-testid="key-delete">
                {t('objectkeys.delete')}
              </Button>
            )}
          </Group>

          {key || objectId ? (
            <ObjectOfKey objectId={form.objectId!} reference={ref} title={key?.objectTitle ?? null} />
          ) : (
            <SearchPicker
              label={t('objectkeys.object')}
              placeholder={t('objectkeys.objectPlaceholder')}
              required
              value={picked}
              onChange={(v) => {
                setPicked(v);
                set({ objectId: v?.id ?? null });
              }}
              search={searchObjectsByRef}
              queryKey="object"
              error={errors.objectId}
              testId="key-object-picker"
            />
          )}

          {key && (
            <KeyState
              form={form}
              lastHolder={key.lastLoan?.account ?? null}
              newLoan={newLoan}
              busy={save.isPending}
              onReturned={returned}
              onLendAgain={lendAgain}
            />
          )}

          <WithReset label={holderLabel} onReset={() => set({ accountId: null, account: '' })} disabled={form.accountId == null} testId="key-reset-account">
            <AccountPicker
              key={form.accountId ?? 'none'}
              label={holderLabel}
              filter={0}
              value={form.accountId != null ? { id: form.accountId, text: form.account } : null}
              onChange={(v) => set({ accountId: v?.id ?? null, account: v?.text ?? '' })}
              required={newLoan}
              testId="key-account"
            />
          </WithReset>
          {errors.accountId && (
            <Text size="sm" c="red">
              {errors.accountId}
            </Text>
          )}
          <WithReset label={t('objectkeys.received')} onReset={() => set({ received: null })} disabled={!form.received} testId="key-reset-received">
            <DateField label={t('objectkeys.received')} value={form.received} onChange={(v) => set({ received: v })} clearable={false} error={errors.received} data-testid="key-received" />
          </WithReset>
          <WithReset label={t('objectkeys.givenAway')} onReset={() => set({ givenAway: null })} disabled={!form.givenAway} testId="key-reset-givenaway">
            <DateField label={t('objectkeys.givenAway')} value={form.givenAway} onChange={(v) => set({ givenAway: v })} clearable={false} error={errors.givenAway} data-testid="key-givenaway" />
          </WithReset>
          {sameDate && (
            <Alert color="yellow" icon={<IconAlertTriangle size={18} />} data-testid="key-same-date" role="status">
              {t('objectkeys.sameDate')}
            </Alert>
          )}
          <Textarea
            label={t('objectkeys.description')}
            value={form.description}
            onChange={(e) => set({ description: e.currentTarget.value })}
            autosize
            minRows={3}
            maxRows={10}
            maxLength={2000}
            error={errors.description}
            data-testid="key-description"
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={back} data-testid="key-cancel">
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="key-save">
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/**
 * Where the key is, as the form stands, with the one-click next step: Key returned while it is
 * out, Lend again while the office holds it. After Lend again, what to do next.
 */
function KeyState({
  form,
  lastHolder,
  newLoan,
  busy,
  onReturned,
  onLendAgain,
}: {
  form: TKeyForm;
  lastHolder: string | null;
  newLoan: boolean;
  busy: boolean;
  onReturned: () => void;
  onLendAgain: () => void;
}) {
  const { t } = useTranslation();
  if (newLoan)
    return (
      <Alert color="blue" data-testid="key-state" role="status">
        {t('objectkeys.lendNote')}
      </Alert>
    );
  const out = keyOut(form);
  const text = keyStateLine(t, { ...form, account: form.account || null, lastLoan: lastHolder ? { account: lastHolder } : null });
  return (
    <Group justify="space-between" gap="xs" wrap="wrap" data-testid="key-state">
      <Text size="sm" fw={500} data-testid="key-state-text" style={{ flex: '1 1 14rem' }}>
        {text}
      </Text>
      {out ? (
        <Button variant="light" onClick={onReturned} loading={busy} data-testid="key-returned">
          {t('objectkeys.returned')}
        </Button>
      ) : (
        <Button variant="light" onClick={onLendAgain} disabled={busy} data-testid="key-lend">
          {t(lastHolder || form.account ? 'objectkeys.lendAgain' : 'objectkeys.lendOut')}
        </Button>
      )}
    </Group>
  );
}

/** The loan's line: "Given to <holder> on <date> · back on <date>". */
function LoanLine({ loan: l }: { loan: TObjectKeyLoan }) {
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
function KeyHistory({ keyAnswer, onKeyChanged }: { keyAnswer: TObjectKeyAnswer; onKeyChanged: (next: TObjectKeyAnswer) => void }) {
  const { t } = useTranslation();
  const history = keyAnswer.history;
  // The Correct button the dialog was opened from takes the focus back when it closes.
  const { editing, open, close, replace: setEditing } = useDialogFrom<TObjectKeyLoan>('[data-testid="key-history-title"]');
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="key-history-title" data-testid="key-history">
      <Title order={3} size="h5" mb="xs" id="key-history-title" tabIndex={-1} data-testid="key-history-title">
        {t('objectkeys.history.title')}
      </Title>
      {history.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="key-history-empty">
          {t('objectkeys.history.empty')}
        </Text>
      ) : (
        <Stack gap="xs" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {history.map((l) => (
            <li key={l.id} data-testid="key-loan">
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <div style={{ flex: 1, minWidth: 0 }}>
                  <LoanLine loan={l} />
                  <Text size="xs" c="dimmed">
                    {t('objectkeys.history.recorded', { name: l.recordedBy ?? '—', when: formatDateTime(l.recordedOn) })}
                  </Text>
                </div>
                <Tooltip label={t('objectkeys.loan.edit')}>
                  <ActionIcon
                    variant="subtle"
                    size="lg"
                    onClick={() => open(l)}
                    aria-label={t('objectkeys.loan.editNamed', { holder: l.account ?? t('objectkeys.state.noHolder'), date: formatDate(l.givenAway ?? l.received) })}
                    data-testid="key-loan-edit"
                  >
                    <IconPencil size={18} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            </li>
          ))}
        </Stack>
      )}
      {editing && (
        <LoanDialog
          // A loan changed by someone else while the dialog is open comes in as a new version: the dialog keeps its draft (its own 409 merges).
          key={editing.id}
          loan={editing}
          isCurrent={history[0]?.id === editing.id}
          onClose={close}
          onDone={(next) => {
            onKeyChanged(next);
            close();
          }}
          onConflict={(next) => {
            onKeyChanged(next);
            const now = next.history.find((l) => l.id === editing.id);
            if (now) setEditing(now);
            else close();
          }}
        />
      )}
    </Paper>
  );
}

type TLoanForm = { accountId: number | null; account: string; givenAway: string | null; received: string | null };
const loanForm = (l: TObjectKeyLoan): TLoanForm => ({ accountId: l.accountId, account: l.account ?? '', givenAway: l.givenAway, received: l.received });

/**
 * Correct a loan: who had the key, given on, back on (empty: not back yet). Saved with the loan's
 * version and an Idempotency-Key (Save pressed again after a lost answer is the same change). The
 * server says what is wrong under the field (back before given, a date after today). The current
 * loan says that the key changes with it. Delete, confirmed, is for a loan recorded by mistake.
 */
function LoanDialog({
  loan,
  isCurrent,
  onClose,
  onDone,
  onConflict,
}: {
  loan: TObjectKeyLoan;
  isCurrent: boolean;
  onClose: () => void;
  onDone: (next: TObjectKeyAnswer) => void;
  onConflict: (next: TObjectKeyAnswer) => void;
}) {
  const { t } = useTranslation();
  const [base, setBase] = useState(loan);
  const [form, setForm] = useState<TLoanForm>(() => loanForm(loan));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<string | null>(null);
  const set = (patch: Partial<TLoanForm>) => setForm((f) => ({ ...f, ...patch }));
  const changed = JSON.stringify(form) !== JSON.stringify(loanForm(base));
  const changeKeys = useChangeKeys();
  const busy = useRef(false);

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
  const save = useMutation({
    // Its errors are said here: under the field, in the dialog (a 409), or as a banner (anything else).
    meta: { handlesErrors: true },
    mutationFn: () => {
      const body = { id: base.id, version: base.version, accountId: form.accountId, givenAway: form.givenAway, received: form.received };
      return saveKeyLoan(body, changeKeys.keyFor(body));
    },
    onSettled: () => {
      busy.current = false;
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
    if (busy.current || focusInvalidEntry(e.currentTarget as HTMLFormElement)) return;
    if (!changed) {
      onClose();
      return;
    }
    busy.current = true;
    setNotice(null);
    save.mutate();
  };
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t('objectkeys.loan.deleteConfirm'),
      children: (
        <Stack gap="xs">
          <LoanLine loan={base} />
          <Text size="sm">{t(isCurrent ? 'objectkeys.loan.deleteCurrentNote' : 'objectkeys.loan.deleteNote')}</Text>
        </Stack>
      ),
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'loan-delete-confirm' } as Record<string, unknown>,
      onConfirm: () => remove.mutate(),
    });

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

/** An input with its Reset button beside it (the spec's account and date resets). */
function WithReset({ children, label, onReset, disabled, testId }: { children: ReactNode; label: string; onReset: () => void; disabled: boolean; testId: string }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <div style={{ flex: 1, minWidth: 0 }}>{children}</div>
      {/* On a phone the button is its icon (named for screen readers), leaving the field its width. */}
      <Button variant="default" px="sm" onClick={onReset} disabled={disabled} aria-label={t('objectkeys.resetField', { field: label })} data-testid={testId}>
        <IconEraser size={16} aria-hidden="true" />
        <Box component="span" ml={6} visibleFrom="xs">
          {t('objectkeys.reset')}
        </Box>
      </Button>
    </Group>
  );
}

/**
 * The key's property as a link, by its number and title as the deal form names it ("#0155 Flat in
 * Kalamaria"); a new key's property is looked up once.
 */
function ObjectOfKey({ objectId, reference, title }: { objectId: number; reference: string; title: string | null }) {
  const { t, i18n } = useTranslation();
  const q = useQuery({
    queryKey: ['objectKeys', 'objectRef', objectId],
    queryFn: ({ signal }) => api<{ referenceNumber: string; title?: string | null; titleRu?: string | null }>(`/api/object/view/${objectId}`, { signal, background: true }),
    enabled: !reference,
    meta: { handlesErrors: true },
  });
  const number = reference || q.data?.referenceNumber;
  const name = reference ? title : q.data ? q.data[headingTitleField(q.data, i18n.language)]?.trim() : null;
  const shown = number && `#${number}${name ? ` ${name}` : ''}`;
  return (
    <Input.Wrapper label={t('objectkeys.object')}>
      <div>
        {q.isError ? (
          <Text c="red" size="sm" data-testid="key-object-missing">
            {t('objectkeys.objectRequired')}
          </Text>
        ) : (
          <Anchor component={Link} to={`/Objects/View/${objectId}`} fw={600} data-testid="key-object">
            {shown || '…'}
          </Anchor>
        )}
      </div>
    </Input.Wrapper>
  );
}
