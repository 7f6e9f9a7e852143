import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Card,
  Chip,
  Group,
  Input,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TAccount, TAccountFields } from '@crm/contract';
import { isGreekTaxNumber } from '@crm/contract/account-fields';
import { IconKey, IconMinus, IconPlus, IconUserCog } from '../../../components/icons.ts';
import { ApiError } from '../../../lib/api.ts';
import { showBanner } from '../../../lib/banner.ts';
import { bodyChangeKey } from '../../../lib/change-key.ts';
import { splitOnConflict } from '../../../lib/conflict-merge.ts';
import { describeError } from '../../../lib/errors.ts';
import { hasBranch, isOfficeAdmin, useSession } from '../../../lib/session.ts';
import { useAutosave, type AutosaveStatus } from '../../../lib/use-autosave.ts';
import { NotSaved, refusedErrors, saveAround, type Refused } from '../../../lib/refused-fields.ts';
import { useUnsavedGuard } from '../../../lib/unsaved-guard.tsx';
import { ACCOUNT_FIELDS, KIND_FLAGS, MAX_EMAILS, MAX_PHONES, SPECIALTIES, joinList, splitList, type TKindFlag } from '../account-fields.ts';
import { accountKeys, updateAccount, type TAccountEdit } from '../api/account.ts';
import { DateField } from '../../../components/fields/date-field.tsx';
import { DecimalField } from '../../../components/fields/decimal-field.tsx';
import { KindBadges } from './kind-badges.tsx';
import { roleText } from './labels.ts';
import { CountryField } from './country-field.tsx';
import { GenderField } from './gender-field.tsx';
import { languageFilter, languageOptions } from './languages.ts';
import { ServiceInfo } from './service-info.tsx';
import { SharedContact } from './shared-contact.tsx';
import { ReplacedNote } from '../../../components/fields/replaced-note.tsx';

/** The form keeps e-mails and phones as lists; the API joins them with ';'. */
export type TAccountForm = Omit<TAccountFields, 'email' | 'phone'> & { emails: string[]; phones: string[] };

export function toForm(a: TAccount): TAccountForm {
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

/** The fields that differ from the record the form is based on: only those are sent. */
function changedFields(f: TAccountForm, base: Record<string, unknown>): Partial<TAccountFields> {
  const now = toFields(f);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(now)) if (JSON.stringify(v ?? null) !== JSON.stringify(base[k] ?? null)) out[k] = v;
  return out as Partial<TAccountFields>;
}

const orNull = (s: string) => (s.trim() === '' ? null : s);

type Props = {
  initial: TAccountEdit;
  expanded: boolean;
  onStatus: (s: AutosaveStatus) => void;
};

/**
 * The account's edit form (view modes 1 and 2). Every change is saved about 400 ms later with the
 * version the form is based on; a 409 loads the current record into the form and says so.
 */
export function AccountEditor({ initial, expanded, onStatus }: Props) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const session = useSession();
  const officeAdmin = isOfficeAdmin(session);
  const branch = hasBranch(session);
  // An employee's e-mails become sign-ins: only office admins change them (the server says so too).
  const emailsLocked = !officeAdmin && (initial.dto.isEmploye || Boolean(initial.dto.signIn));
  // A payments account's mail (its invitation, its approval links) goes there: not a branch's to change.
  const paymentsEmails = !emailsLocked && branch && Boolean(initial.dto.hasTransactions);
  const id = initial.dto.id;
  const lists = initial.selectLists;
  const [form, setForm] = useState<TAccountForm>(() => toForm(initial.dto));
  const formNow = useRef(form);
  formNow.current = form;
  const [record, setRecord] = useState<TAccount>(initial.dto);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [saveError, setSaveError] = useState<unknown>(null);
  /** Fields both people changed, where the other's value was kept: what this user had typed, and theirs. */
  const [kept, setKept] = useState<Record<string, { yours: unknown; theirs: unknown }>>({});
  const version = useRef(initial.dto.version);
  /** The record as last saved or loaded: what the form's changes are measured against. */
  const base = useRef(toFields(toForm(initial.dto)));
  const refused = useRef<Refused>(new Map());
  /** What saves that got no answer carried: stored perhaps, so the same values in a 409's version are this user's own. */
  const unconfirmed = useRef<Record<string, unknown>>({});
  const resetRef = useRef<(v: TAccountForm) => void>(() => {});

  const publish = useCallback(
    (dto: TAccount) => {
      client.setQueryData(accountKeys.view(id), dto);
      client.setQueryData<TAccountEdit>(accountKeys.edit(id), (old) => (old ? { ...old, dto } : old));
      void client.invalidateQueries({ queryKey: ['accounts'] });
    },
    [client, id],
  );

  const save = useCallback(
    async (f: TAccountForm) => {
      const changes = changedFields(f, base.current);
      // A mistyped ΑΦΜ is told at once and kept in its box, and the other changes still save
      // (the server would refuse the whole save for it).
      const local: Record<string, string> = {};
      if (typeof changes.taxNumber === 'string' && changes.taxNumber.trim() && !isGreekTaxNumber(changes.taxNumber)) {
        local.taxNumber = t('validation.taxNumber');
        delete changes.taxNumber;
      }
      if (Object.keys(changes).length === 0) {
        setFieldErrors(local);
        return;
      }
      let held: Record<string, string>;
      try {
        const around = await saveAround(refused.current, changes, (b) => {
          const sent = { id, version: version.current, ...b };
          return updateAccount(sent, bodyChangeKey(sent));
        });
        held = { ...local, ...around.held };
        const dto = around.saved;
        if (dto) {
          unconfirmed.current = {};
          version.current = dto.version;
          // A ΑΦΜ or a field held back (refused) still differs from the saved record, so the next save looks at it again.
          base.current = toFields(toForm(dto));
          setRecord(dto);
          publish(dto);
        }
        setFieldErrors(held);
        setSaveError(null);
      } catch (e) {
        if (e instanceof ApiError && e.status === 409 && e.problem.current) {
          // Someone else saved first: their version is loaded, nothing of theirs is overwritten. What
          // only this user changed (in this save, or typed while it was on its way) is put back and
          // saved on their version; a field both changed keeps theirs, and the banner names it.
          const current = e.problem.current as TAccount;
          const theirs = toFields(toForm(current));
          const latest = formNow.current;
          const { mine, lost, foreign } = splitOnConflict(Object.keys(theirs), base.current, toFields(latest), theirs, unconfirmed.current);
          unconfirmed.current = {};
          version.current = current.version;
          base.current = theirs;
          setRecord(current);
          const next = toForm(current) as unknown as Record<string, unknown>;
          const mineForm = latest as unknown as Record<string, unknown>;
          for (const k of mine) {
            const formKey = k === 'email' ? 'emails' : k === 'phone' ? 'phones' : k;
            next[formKey] = mineForm[formKey];
          }
          if (!mine.length) resetRef.current(next as unknown as TAccountForm);
          setForm(next as unknown as TAccountForm);
          setFieldErrors({});
          setSaveError(null);
          publish(current);
          // Beside each field where theirs was kept, what this user had typed, with a way to put it back.
          setKept((was) => ({ ...was, ...Object.fromEntries(lost.map((k) => [k, { yours: mineForm[k], theirs: next[k] }])) }));
          // The other version is this user's own save whose answer was lost: nothing to tell.
          if (!foreign) return;
          const message = e.problem.title || t('errors.conflict');
          showBanner('warning', lost.length ? `${message} ${t('accounts.ui.conflictKept', { fields: lost.map((k) => t(`accounts.ui.field.${k}`)).join(', ') })}` : message);
          return;
        }
        // No answer: the save may have been stored all the same; a 409 on the next one will say whose.
        if (e instanceof ApiError && e.status === 0) unconfirmed.current = { ...unconfirmed.current, ...changes };
        if (e instanceof ApiError && e.status === 400) setFieldErrors({ ...local, ...refusedErrors(refused.current), ...e.fieldErrors });
        setSaveError(e);
        throw e;
      }
      if (Object.keys(held).length) throw new NotSaved(held);
    },
    [id, publish, t],
  );

  const autosave = useAutosave({ value: form, save });
  resetRef.current = autosave.reset;
  useUnsavedGuard(autosave);
  useEffect(() => onStatus(autosave.status), [autosave.status, onStatus]);

  const set = <K extends keyof TAccountForm>(key: K, value: TAccountForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  /** While a field shows the other person's value that replaced this user's: a note with what this user typed. */
  const replaced = (key: 'purchaseBudgetRangeMin' | 'purchaseBudgetRangeMax' | keyof TAccountForm, type: 'text' | 'currency') => {
    const k = kept[key];
    const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
    if (!k || !same(form[key], k.theirs) || same(k.yours, k.theirs)) return undefined;
    const yours = k.yours;
    if (typeof yours !== 'string' && typeof yours !== 'number' && yours !== null) return undefined;
    return <ReplacedNote type={type} yours={yours} onPutBack={() => set(key, yours as never)} testId={`field-${key}`} />;
  };
  const text = (key: keyof TAccountForm, label: string, extra: { required?: boolean; maxLength?: number } = {}) => (
    <TextInput
      label={label}
      value={(form[key] as string | null) ?? ''}
      onChange={(e) => set(key, orNull(e.currentTarget.value) as never)}
      error={fieldErrors[key]}
      description={replaced(key, 'text')}
      data-testid={`field-${key}`}
      {...extra}
    />
  );
  /** A country, or a nationality: free text, the countries' names or the nationalities offered as one types. */
  const country = (key: 'country' | 'nationality', label: string) => (
    <CountryField label={label} kind={key} value={form[key]} onChange={(v) => set(key, v)} error={fieldErrors[key]} description={replaced(key, 'text')} testId={`field-${key}`} maxLength={100} />
  );
  const triState = (key: 'isCompany' | 'isIndividual', label: string) => (
    <Input.Wrapper label={label} error={fieldErrors[key]}>
      <div>
        <SegmentedControl
          size="xs"
          value={form[key] === null ? 'null' : String(form[key])}
          onChange={(v) => set(key, v === 'null' ? null : v === 'true')}
          data={[
            { value: 'null', label: t('accounts.ui.tri.unset') },
            { value: 'true', label: t('common.yes') },
            { value: 'false', label: t('common.no') },
          ]}
          data-testid={`field-${key}`}
        />
      </div>
    </Input.Wrapper>
  );
  const money = (key: 'purchaseBudgetRangeMin' | 'purchaseBudgetRangeMax', label: string) => (
    <DecimalField
      label={label}
      value={form[key] ?? ''}
      onChange={(v) => set(key, v === '' ? null : v)}
      scale={2}
      padDecimals
      unit="€"
      error={fieldErrors[key]}
      description={replaced(key, 'currency')}
      data-testid={`field-${key}`}
    />
  );
  const options = (list: { text: string; value: string | number }[]) => list.map((o) => ({ value: String(o.value), label: o.text }));

  const isCompanyKind = form.isSource || form.isProfessional || form.isPartnerRealEstate || form.isPartnerTourism;
  const kinds = KIND_FLAGS.filter((k) => form[k]);

  return (
    <Stack gap="sm" data-testid="account-editor" data-expanded={expanded ? 'true' : 'false'}>
      {saveError != null && (
        <Alert color="red" data-testid="save-error" title={t('accounts.ui.edit.notSaved')}>
          <Stack gap={6}>
            <Text size="sm" className="pre-line">
              {describeError(saveError).message}
            </Text>
            <Group>
              <Button size="xs" variant="light" color="red" onClick={() => setForm((f) => ({ ...f }))}>
                {t('common.retry')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}

      <Card withBorder padding="sm">
        <Group justify="space-between" align="flex-start" mb="xs">
          <Title order={2} size="h3" data-testid="account-name">
            {record.displayName || `#${id}`}
          </Title>
          <KindBadges account={form} />
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          {text('lastName', t('accounts.ui.field.lastName'), { required: true })}
          {text('firstName', t('accounts.ui.field.firstName'), { required: true })}
          {text('middleName', t('accounts.ui.field.middleName'))}
        </SimpleGrid>
        {form.isCompany !== true && <GenderField value={form.gender} onChange={(v) => set('gender', v)} error={fieldErrors.gender} />}
        <Input.Wrapper label={t('accounts.ui.field.kinds')} mt="sm">
          <Chip.Group
            multiple
            value={kinds}
            onChange={(v) => setForm((f) => ({ ...f, ...Object.fromEntries(KIND_FLAGS.map((k) => [k, (v as TKindFlag[]).includes(k)])) }))}
          >
            <Group gap={6} mt={4}>
              {KIND_FLAGS.map((k) => (
                <Chip key={k} value={k} size="sm" disabled={k === 'isEmploye' && !officeAdmin} data-testid={`field-kind-${k}`}>
                  {t(`accounts.ui.kind.${k}`)}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        </Input.Wrapper>
      </Card>

      {form.isClient && (
        <EditSection title={t('accounts.ui.section.request')} testId="edit-request">
          {money('purchaseBudgetRangeMin', t('accounts.ui.field.budgetFrom'))}
          {money('purchaseBudgetRangeMax', t('accounts.ui.field.budgetUpTo'))}
          <Select
            label={t('accounts.ui.field.source')}
            data={options(lists.sources)}
            value={form.sourceId == null ? null : String(form.sourceId)}
            onChange={(v) => set('sourceId', v == null ? null : Number(v))}
            clearable
            searchable
            error={fieldErrors.sourceId}
            data-testid="field-sourceId"
          />
          <Select
            label={t('accounts.ui.field.service')}
            data={options(lists.services)}
            value={form.service == null ? null : String(form.service)}
            onChange={(v) => set('service', v == null ? null : Number(v))}
            clearable
            error={fieldErrors.service}
            data-testid="field-service"
          />
        </EditSection>
      )}

      {isCompanyKind && (
        <EditSection title={t('accounts.ui.section.company')} testId="edit-company">
          {triState('isCompany', t('accounts.ui.field.isCompany'))}
          {triState('isIndividual', t('accounts.ui.field.isIndividual'))}
          {text('name', t('accounts.ui.field.companyName'))}
          {text('nameEng', t('accounts.ui.field.companyNameEng'))}
          {text('nameLocal', t('accounts.ui.field.companyNameLocal'))}
          {(form.isSource || expanded) && text('companyType', t('accounts.ui.field.companyType'))}
        </EditSection>
      )}

      {form.isProfessional && (
        <Card withBorder padding="sm" data-testid="edit-specialty">
          <Title order={3} size="h5" mb="xs">
            {t('accounts.ui.section.specialty')}
          </Title>
          <Chip.Group
            multiple
            value={SPECIALTIES.filter((s) => form[s])}
            onChange={(v) => setForm((f) => ({ ...f, ...Object.fromEntries(SPECIALTIES.map((s) => [s, (v as string[]).includes(s)])) }))}
          >
            <Group gap={6}>
              {SPECIALTIES.map((s) => (
                <Chip key={s} value={s} size="xs" data-testid={`field-${s}`}>
                  {t(`accounts.ui.specialty.${s}`)}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        </Card>
      )}

      <Card withBorder padding="sm" data-testid="edit-contacts">
        <Title order={3} size="h5" mb="xs">
          {t('accounts.ui.section.contacts')}
        </Title>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <ListInputs
            label={t('accounts.ui.field.emails')}
            values={form.emails}
            max={MAX_EMAILS}
            name="email"
            type="email"
            disabled={emailsLocked || paymentsEmails}
            hint={emailsLocked ? t('accounts.ui.edit.emailsOfficeAdminOnly') : paymentsEmails ? t('accounts.ui.edit.emailsPaymentsOffice') : undefined}
            error={fieldErrors.email}
            onChange={(v) => set('emails', v)}
            below={(v, i) => <SharedContact kind="email" value={v} selfId={id} testId={`shared-email-${i}`} />}
          />
          <ListInputs
            label={t('accounts.ui.field.phones')}
            values={form.phones}
            max={MAX_PHONES}
            name="phone"
            type="tel"
            error={fieldErrors.phone}
            onChange={(v) => set('phones', v)}
            below={(v, i) => <SharedContact kind="phone" value={v} selfId={id} testId={`shared-phone-${i}`} />}
          />
        </SimpleGrid>
      </Card>

      <EditSection title={t('accounts.ui.section.address')} testId="edit-address">
        {text('city', t('accounts.ui.field.city'))}
        {text('postcode', t('accounts.ui.field.postcode'))}
        {text('address', t('accounts.ui.field.address'))}
      </EditSection>

      {form.isEmploye && !branch && (
        <EditSection title={t('accounts.ui.section.employe')} testId="edit-employe">
          <DateField
            label={t('accounts.ui.field.startDate')}
            value={form.startDate}
            onChange={(v) => set('startDate', v)}
            error={fieldErrors.startDate}
            data-testid="field-startDate"
          />
          <DateField label={t('accounts.ui.field.endDate')} value={form.endDate} onChange={(v) => set('endDate', v)} error={fieldErrors.endDate} data-testid="field-endDate" />
          <div>
            <Text size="sm" fw={500}>
              {t('accounts.ui.field.role')}
            </Text>
            <Group gap="sm">
              <Text size="sm">{roleText(t, form.role) || t('common.notSet')}</Text>
              {officeAdmin && (
                <Anchor component={Link} to={`/ChangeEmployeRole/${id}`} size="sm" data-testid="change-role">
                  <Group gap={4}>
                    <IconUserCog size={16} />
                    {t('accounts.ui.employe.changeRole')}
                  </Group>
                </Anchor>
              )}
              {officeAdmin && (
                <Anchor component={Link} to={`/SetPassword/${id}`} size="sm" data-testid="set-password">
                  <Group gap={4}>
                    <IconKey size={16} />
                    {t('accounts.ui.employe.setPassword')}
                  </Group>
                </Anchor>
              )}
            </Group>
          </div>
          <Select
            label={t('accounts.ui.field.branch')}
            data={[{ value: '', label: t('branch.notSet') }, ...options(lists.branches)]}
            value={form.branchId == null ? '' : String(form.branchId)}
            onChange={(v) => set('branchId', v ? Number(v) : null)}
            allowDeselect={false}
            disabled={!officeAdmin}
            description={officeAdmin ? undefined : t('accounts.ui.employe.branchAdminOnly')}
            error={fieldErrors.branchId}
            data-testid="field-branchId"
          />
        </EditSection>
      )}

      {expanded && (
        <>
          <EditSection title={t('accounts.ui.section.names')} testId="edit-names">
            {text('lastNameEng', t('accounts.ui.field.lastNameEng'))}
            {text('firstNameEng', t('accounts.ui.field.firstNameEng'))}
            {text('middleNameEng', t('accounts.ui.field.middleNameEng'))}
            {text('lastNameLocal', t('accounts.ui.field.lastNameLocal'))}
            {text('firstNameLocal', t('accounts.ui.field.firstNameLocal'))}
            {text('middleNameLocal', t('accounts.ui.field.middleNameLocal'))}
            <Select
              label={t('accounts.ui.field.language')}
              data={languageOptions(form.language)}
              value={form.language}
              onChange={(v) => set('language', v)}
              searchable
              filter={languageFilter}
              clearable
              error={fieldErrors.language}
              data-testid="field-language"
            />
            {country('country', t('accounts.ui.field.country'))}
            {country('nationality', t('accounts.ui.field.nationality'))}
          </EditSection>

          {!isCompanyKind && (
            <EditSection title={t('accounts.ui.section.company')} testId="edit-company-other">
              {triState('isCompany', t('accounts.ui.field.isCompany'))}
              {triState('isIndividual', t('accounts.ui.field.isIndividual'))}
              {text('name', t('accounts.ui.field.companyName'))}
              {text('nameEng', t('accounts.ui.field.companyNameEng'))}
              {text('nameLocal', t('accounts.ui.field.companyNameLocal'))}
              {text('companyType', t('accounts.ui.field.companyType'))}
            </EditSection>
          )}
          <EditSection title={t('accounts.ui.section.documents')} testId="edit-documents">
            {text('internalPassportNumber', t('accounts.ui.field.internalPassportNumber'))}
            {text('passportNumber', t('accounts.ui.field.passportNumber'))}
            {text('taxNumber', t('accounts.ui.field.taxNumber'))}
            {text('taxNumberOfOtherCountry', t('accounts.ui.field.taxNumberOfOtherCountry'))}
          </EditSection>

          {!form.isClient && (
            <EditSection title={t('accounts.ui.section.request')} testId="edit-request-other">
              {money('purchaseBudgetRangeMin', t('accounts.ui.field.budgetFrom'))}
              {money('purchaseBudgetRangeMax', t('accounts.ui.field.budgetUpTo'))}
            </EditSection>
          )}

          {!branch && (
            <Card withBorder padding="sm">
              <Switch
                label={t('accounts.ui.field.hasTransactions')}
                checked={form.hasTransactions}
                onChange={(e) => set('hasTransactions', e.currentTarget.checked)}
                data-testid="field-hasTransactions"
              />
            </Card>
          )}
        </>
      )}

      <Card withBorder padding="sm">
        <Textarea
          label={t('accounts.ui.field.notes')}
          description={t('accounts.ui.field.notesHint')}
          autosize
          minRows={3}
          maxRows={16}
          value={form.notes ?? ''}
          onChange={(e) => set('notes', orNull(e.currentTarget.value))}
          error={fieldErrors.notes}
          data-testid="field-notes"
        />
      </Card>

      <ServiceInfo record={record} />
    </Stack>
  );
}

function EditSection({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <Card withBorder padding="sm" data-testid={testId}>
      <Title order={3} size="h5" mb="xs">
        {title}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" verticalSpacing="xs">
        {children}
      </SimpleGrid>
    </Card>
  );
}

/** Up to `max` e-mails or phones, one input each, with add and remove. Free text, no format check. */
function ListInputs({
  label,
  values,
  max,
  name,
  type,
  error,
  disabled = false,
  hint,
  onChange,
  below,
}: {
  label: string;
  values: string[];
  max: number;
  name: 'email' | 'phone';
  type: 'email' | 'tel';
  error?: string;
  disabled?: boolean;
  hint?: string;
  onChange: (v: string[]) => void;
  /** Said under an entry (another account with the same phone or e-mail). */
  below?: (value: string, index: number) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Input.Wrapper label={label} error={error} description={hint}>
      <Stack gap={6} mt={4}>
        {values.map((v, i) => (
          <Stack key={i} gap={2}>
            <Group gap={6} wrap="nowrap">
              <TextInput
                style={{ flex: 1 }}
                type={type === 'email' ? 'text' : 'tel'}
                inputMode={type}
                value={v}
                disabled={disabled}
                onChange={(e) => onChange(values.map((x, j) => (j === i ? e.currentTarget.value : x)))}
                aria-label={`${label} ${i + 1}`}
                data-testid={`field-${name}-${i}`}
              />
              <ActionIcon
                variant="subtle"
                color="gray"
                disabled={disabled}
                onClick={() => onChange(values.length > 1 ? values.filter((_, j) => j !== i) : [''])}
                aria-label={t('accounts.ui.edit.remove')}
                data-testid={`remove-${name}-${i}`}
              >
                <IconMinus size={16} />
              </ActionIcon>
            </Group>
            {below?.(v, i)}
          </Stack>
        ))}
        {values.length < max && !disabled && (
          <Group>
            <Button size="xs" variant="subtle" leftSection={<IconPlus size={14} />} onClick={() => onChange([...values, ''])} data-testid={`add-${name}`}>
              {t(name === 'email' ? 'accounts.ui.edit.addEmail' : 'accounts.ui.edit.addPhone')}
            </Button>
          </Group>
        )}
      </Stack>
    </Input.Wrapper>
  );
}
