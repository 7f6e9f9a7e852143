import { Alert, Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent, type MutableRefObject } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useNavigate } from 'react-router';
import type { TObjectKey, TObjectKeyAnswer } from '@crm/contract';
import { href, OBJECT, OBJECT_KEY } from '@crm/contract/resources';
import { IconAlertTriangle, IconTrash } from '../../../components/icons.ts';
import { bannerStore, clearBanner, showBanner, type Banner } from '../../../lib/banner.ts';
import { reportError } from '../../../lib/errors.ts';
import { AccountPicker } from '../../../components/account-picker.tsx';
import { DateField } from '../../../components/fields/date-field.tsx';
import { SearchPicker, type Picked } from '../../../components/search-picker.tsx';
import { focusInvalidEntry } from '../../../components/fields/invalid-entry.ts';
import { mergeOnConflict } from '../../../lib/conflict-merge.ts';
import { agencyToday } from '../../../lib/agency-clock.ts';
import { searchObjectsByRef } from '../../../lib/pickers.ts';
import { saveRecord, useDeleteRecord, useRecordForm } from '../../../kit/record.tsx';
import { deleteObjectKey, keyHeld, keyKeys, saveObjectKey, type TKeyEdit } from '../api/object-keys.ts';
import { KeyState, ObjectOfKey, WithReset, type TKeyForm } from './key-form-parts.tsx';
import { FormButtons } from '../../../components/form-buttons.tsx';

/** A key as its form holds it (the holder's name and the description as texts). */
export const toKeyForm = ({ objectId, objectReferenceNumber, accountId, account, received, givenAway, description }: TObjectKey): TKeyForm =>
  ({ objectId, objectReferenceNumber, accountId, account: account ?? '', received, givenAway, description: description ?? '' });

/** The inputs of the fields the server may refuse, in the form's order (the first takes the focus). */
const FIELD_TEST_IDS = { objectId: 'key-object-picker', accountId: 'key-account', received: 'key-received', givenAway: 'key-givenaway', description: 'key-description' } as const;
const FIELD_INPUTS = Object.keys(FIELD_TEST_IDS) as (keyof typeof FIELD_TEST_IDS)[];

type KeyFormProps = {
  /** The key (none: a new one, of `objectId` when the address names a property). */
  initial: TObjectKeyAnswer | null;
  objectId: number | null;
  /** What the form holds now, for a loan's correction that changes the key (a new version). */
  typed?: MutableRefObject<(() => TKeyForm) | null>;
};

/**
 * The key's form (spec 2.4): its property, where the key is with Key returned or Lend again, Given
 * to with its reset, the two dates with theirs and the same-date warning, the description, Save and
 * Cancel, and Delete. Saved on the record kit, with the version guard and the merge of a conflict.
 */
export function KeyForm(props: KeyFormProps) {
  const { t } = useTranslation();
  const { initial: key, objectId } = props;
  const { rf, set, submit, returned, lendAgain, remove, back, newLoan, picked, pick, formRef } = useKeyForm(props);
  const { form, errors } = rf;
  const ref = key?.objectReferenceNumber ?? form.objectReferenceNumber;
  const sameDate = !!form.received && !!form.givenAway && form.received === form.givenAway;
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
              <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={remove} data-testid="key-delete">
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
              onChange={pick}
              search={searchObjectsByRef}
              queryKey="object"
              error={errors.objectId}
              testId="key-object-picker"
            />
          )}
          {key && <KeyState form={form} lastHolder={key.lastLoan?.account ?? null} newLoan={newLoan} busy={rf.busy} onReturned={returned} onLendAgain={lendAgain} />}
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
          <FormButtons onCancel={back} loading={rf.busy} testId="key-save" cancelTestId="key-cancel" gap="sm" />
        </Stack>
      </form>
    </Paper>
  );
}

/** The key form's state and its actions: Save, Key returned, Lend again, Delete, Cancel. */
function useKeyForm({ initial, objectId, typed }: KeyFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const blank: TKeyForm = { objectId, objectReferenceNumber: '', accountId: null, account: '', received: null, givenAway: null, description: '' };
  const rf = useRecordForm({ record: initial, mode: initial ? 'edit' : 'create', carryKey: `key-${initial?.id}`, toForm: (k) => (k ? toKeyForm(k) : blank) });
  const { form } = rf;
  // Lend again: the next save starts a new loan (decision 014), and needs who takes the key.
  const [newLoan, setNewLoan] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  // The property picked for a new key, named as the deal form's picker names it (number, title, owner).
  const [picked, setPicked] = useState<Picked>(null);
  // The banner a refused save put up for a field the form does not show (the property's link): it
  // goes when that field is changed or a save succeeds, as the error under a field does.
  const fieldBanner = useRef<Banner>(null);
  const dropFieldBanner = () => {
    if (fieldBanner.current && bannerStore.get() === fieldBanner.current) clearBanner();
    fieldBanner.current = null;
  };
  /** A change of fields: what the server said about them is no longer about what they hold. */
  const set = (patch: Partial<TKeyForm>) => {
    rf.set(patch);
    const said = (Object.keys(patch) as (keyof TKeyForm)[]).filter((k) => rf.errors[k] && patch[k] !== form[k]);
    if (!said.length) return;
    const left = Object.fromEntries(Object.entries(rf.errors).filter(([k]) => !(said as string[]).includes(k)));
    rf.setErrors(left);
    if (!Object.keys(left).length) dropFieldBanner();
  };
  if (typed) typed.current = () => form;
  const backPath = form.objectId && !initial && objectId ? href(OBJECT.screens.view, { id: objectId }) : OBJECT_KEY.screens.list;
  const back = () => navigate(backPath);

  const bodyOf = (f: TKeyForm): TKeyEdit => ({
    ...(initial ? { id: initial.id, version: initial.version } : {}),
    objectId: f.objectId!,
    accountId: f.accountId,
    received: f.received,
    givenAway: f.givenAway,
    description: f.description.trim() || null,
    ...(newLoan ? { newLoan: true } : {}),
  });
  /** Saves `next`; Key returned (`stay`) saves and stays: the form shows the key back, its loan in the history. */
  const save = (next: TKeyForm, stay: boolean) =>
    saveRecord(
      rf,
      {
        body: () => bodyOf(next),
        // Saved again after a lost answer, the same content is the same change: no second key.
        send: saveObjectKey,
        saved: (saved) => {
          rf.setErrors({});
          dropFieldBanner();
          client.setQueryData(keyKeys.edit(saved.id), saved);
          void client.invalidateQueries({ queryKey: ['objectKeys', 'list'] });
          void client.invalidateQueries({ queryKey: ['object'] });
          return stay ? { banner: ['success', t('objectkeys.returnedSaved')] } : { to: backPath, banner: ['success', t('objectkeys.saved')] };
        },
        conflict: {
          current: (c) => c as TObjectKeyAnswer,
          // Someone else saved first: their version in the form, with what only this user changed on it.
          merge: (current) => {
            const m = mergeOnConflict(rf.loaded, next, toKeyForm(current));
            return { ...m, kept: m.changed.length > m.lost.length };
          },
          store: (current) => client.setQueryData(keyKeys.edit(current.id), current),
          label: (k) => t(k === 'account' || k === 'accountId' ? 'objectkeys.givenTo' : k === 'objectId' || k === 'objectReferenceNumber' ? 'objectkeys.object' : `objectkeys.${k}`),
          title: t('objectkeys.conflict'),
        },
        // Said once, under the field, which takes the focus (as the loan's dialog does). Only a field
        // the form does not show is said in the banner.
        invalid: (e) => {
          dropFieldBanner();
          const first = FIELD_INPUTS.find((f) => e.fieldErrors[f]);
          const input = first && formRef.current?.querySelector<HTMLElement>(`[data-testid="${FIELD_TEST_IDS[first]}"]`);
          if (input) input.focus();
          else {
            reportError(e);
            fieldBanner.current = bannerStore.get();
          }
        },
        errorsIn: 'banner',
      },
      t,
      navigate,
    );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (rf.busyNow.current || focusInvalidEntry(e.currentTarget as HTMLFormElement)) return;
    if (!form.objectId) {
      rf.setErrors({ objectId: t('objectkeys.objectRequired') });
      return;
    }
    if (newLoan && form.accountId == null) {
      rf.setErrors({ accountId: t('objectkeys.lendHolderRequired') });
      formRef.current?.querySelector<HTMLInputElement>('[data-testid="key-account"]')?.focus();
      return;
    }
    void save(form, false);
  };
  /**
   * Key returned: received today, saved at once. Back the day it went out, the given-away date is
   * cleared (the spec's warning asks for one of two equal dates to go): the loan keeps both.
   */
  const returned = () => {
    if (rf.busyNow.current || !form.objectId || focusInvalidEntry(formRef.current ?? undefined)) return;
    const today = agencyToday();
    const next = { ...form, received: today, givenAway: form.givenAway === today ? null : form.givenAway };
    rf.setForm(next);
    void save(next, true);
  };
  /** Lend again: a new loan from today; the user picks who takes the key and saves. */
  const lendAgain = () => {
    rf.setForm((f) => ({ ...f, accountId: null, account: '', givenAway: agencyToday(), received: null }));
    setNewLoan(true);
    rf.setErrors({});
    dropFieldBanner();
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLInputElement>('[data-testid="key-account"]')?.focus());
  };
  const confirmDelete = useDeleteRecord();
  const remove = () =>
    confirmDelete({
      title: t('objectkeys.delete'),
      text: t('objectkeys.deleteConfirm', { ref: initial?.objectReferenceNumber ?? '' }),
      run: () => deleteObjectKey(initial!.id),
      drop: [keyKeys.edit(initial!.id)],
      refresh: [['objectKeys', 'list'], ['object']],
      done: { banner: ['success', t('objectkeys.deleted')], to: OBJECT_KEY.screens.list },
      onError: (message) => showBanner('danger', message),
      release: rf.leaveGuard.release,
    });
  const pick = (v: Picked) => {
    setPicked(v);
    set({ objectId: v?.id ?? null });
  };
  return { rf, set, submit, returned, lendAgain, remove, back, newLoan, picked, pick, formRef };
}
