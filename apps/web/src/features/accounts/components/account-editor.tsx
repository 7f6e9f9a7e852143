import { Card, Stack, Textarea } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TAccount, TAccountFields } from '@crm/contract';
import { isGreekTaxNumber } from '@crm/contract/account-fields';
import { useRecordAutosave, type InPlaceEditorProps } from '../../../kit/record-autosave.ts';
import { SaveFailed } from '../../../kit/save-failed.tsx';
import { hasBranch, isOfficeAdmin, useSession } from '../../../lib/session.ts';
import { ACCOUNT_FIELDS, joinList, splitList } from '../account-fields.ts';
import { accountKeys, updateAccount, type TAccountEdit } from '../api/account.ts';
import { AccountText, EditSection, type AccountFormApi, type TAccountForm } from './account-edit-fields.tsx';
import { AccountCompanySection, AccountContactsCard, AccountEmployeSection, AccountHeadCard, AccountMoreSections, AccountRequestSection, AccountSpecialtyCard } from './account-edit-sections.tsx';
import { ServiceInfo } from './service-info.tsx';

function toForm(a: TAccount): TAccountForm {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(a)) out[k] = v;
  const emails = splitList(a.email);
  const phones = splitList(a.phone);
  return { ...(out as TAccountFields), emails: emails.length ? emails : [''], phones: phones.length ? phones : [''] } as TAccountForm;
}

/** The account's own fields as the API takes them (not the view's lists, stamps or names). */
function toFields(f: TAccountForm): Record<string, unknown> {
  const src = f as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of ACCOUNT_FIELDS) out[k] = src[k];
  out.email = joinList(f.emails);
  out.phone = joinList(f.phones);
  return out;
}
const FIELD_NAMES: readonly string[] = [...new Set<string>([...ACCOUNT_FIELDS, 'email', 'phone'])];
/** The form keeps the joined e-mails and phones as lists. */
const formKey = (k: string) => (k === 'email' ? 'emails' : k === 'phone' ? 'phones' : k);

/**
 * The account's edit form (view modes 1 and 2), on the record kit's auto-save: every change is
 * saved about 400 ms later with the version the form is based on; a 409 loads the current record,
 * keeps what only this user changed, and says so.
 */
export function AccountEditor({ initial, expanded, onStatus }: InPlaceEditorProps<TAccountEdit>) {
  const { t } = useTranslation();
  const session = useSession();
  const officeAdmin = isOfficeAdmin(session);
  const branch = hasBranch(session);
  const id = initial.dto.id;
  const { record, form, setForm, fieldErrors, saveError, yoursReplaced } = useRecordAutosave<TAccount, TAccountForm>({
    initial: initial.dto,
    toForm,
    toWires: toFields,
    fieldNames: FIELD_NAMES,
    formKey,
    // A mistyped ΑΦΜ is told at once and kept in its box, and the other changes still save (the server would refuse the whole save for it).
    hold: (changes): Record<string, string> => {
      if (typeof changes.taxNumber !== 'string' || !changes.taxNumber.trim() || isGreekTaxNumber(changes.taxNumber)) return {};
      delete changes.taxNumber;
      return { taxNumber: t('validation.taxNumber') };
    },
    update: (b, changeKey) => updateAccount({ id, ...b } as Parameters<typeof updateAccount>[0], changeKey),
    recordKey: `account-${id}`,
    publish: (dto, client) => {
      client.setQueryData(accountKeys.view(id), dto);
      client.setQueryData<TAccountEdit>(accountKeys.edit(id), (old) => (old ? { ...old, dto } : old));
      void client.invalidateQueries({ queryKey: ['accounts'] });
    },
    conflictKept: (fields) => t('accounts.ui.conflictKept', { fields: fields.join(', ') }),
    fieldLabel: (k) => t(`accounts.ui.field.${k}`),
    onStatus,
  });
  const f: AccountFormApi = { form, set: (key, value) => setForm((x) => ({ ...x, [key]: value })), setForm, errors: fieldErrors, yoursReplaced };
  // An employee's e-mails become sign-ins: only office admins change them (the server says so too).
  const emailsLocked = !officeAdmin && (initial.dto.isEmploye || Boolean(initial.dto.signIn));
  // A payments account's mail (its invitation, its approval links) goes there: not a branch's to change.
  const paymentsEmails = !emailsLocked && branch && Boolean(initial.dto.hasTransactions);
  const isCompanyKind = form.isSource || form.isProfessional || form.isPartnerRealEstate || form.isPartnerTourism;

  return (
    <Stack gap="sm" data-testid="account-editor" data-expanded={expanded ? 'true' : 'false'}>
      {saveError != null && <SaveFailed title={t('accounts.ui.edit.notSaved')} error={saveError} onRetry={() => setForm((x) => ({ ...x }))} />}
      <AccountHeadCard f={f} record={record} officeAdmin={officeAdmin} />
      {form.isClient && <AccountRequestSection f={f} lists={initial.selectLists} testId="edit-request" />}
      {isCompanyKind && <AccountCompanySection f={f} testId="edit-company" withType={Boolean(form.isSource) || expanded} />}
      {form.isProfessional && <AccountSpecialtyCard f={f} />}
      <AccountContactsCard f={f} id={id} emailsLocked={emailsLocked} paymentsEmails={paymentsEmails} />
      <EditSection title={t('accounts.ui.section.address')} testId="edit-address">
        <AccountText f={f} k="city" label={t('accounts.ui.field.city')} />
        <AccountText f={f} k="postcode" label={t('accounts.ui.field.postcode')} />
        <AccountText f={f} k="address" label={t('accounts.ui.field.address')} />
      </EditSection>
      {form.isEmploye && !branch && <AccountEmployeSection f={f} id={id} officeAdmin={officeAdmin} lists={initial.selectLists} />}
      {expanded && <AccountMoreSections f={f} branch={branch} isCompanyKind={Boolean(isCompanyKind)} />}
      <Card withBorder padding="sm">
        <Textarea
          label={t('accounts.ui.field.notes')}
          description={t('accounts.ui.field.notesHint')}
          autosize
          minRows={3}
          maxRows={16}
          value={form.notes ?? ''}
          onChange={(e) => f.set('notes', e.currentTarget.value.trim() === '' ? null : e.currentTarget.value)}
          error={fieldErrors.notes}
          data-testid="field-notes"
        />
      </Card>
      <ServiceInfo record={record} />
    </Stack>
  );
}
