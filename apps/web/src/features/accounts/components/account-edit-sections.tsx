import { Anchor, Card, Chip, Group, Input, Select, SimpleGrid, Switch, Text, Title } from '@mantine/core';
import { SectionCard } from '../../../components/titled-card.tsx';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import type { TAccount } from '@crm/contract';
import { IconKey, IconUserCog } from '../../../components/icons.ts';
import { DateField } from '../../../components/fields/date-field.tsx';
import { KIND_FLAGS, MAX_EMAILS, MAX_PHONES, SPECIALTIES, type TKindFlag } from '../account-fields.ts';
import type { TAccountEdit } from '../api/account.ts';
import { AccountCountry, AccountMoney, AccountSelect, AccountText, AccountTriState, EditSection, ListInputs, selectOptions, type AccountFormApi } from './account-edit-fields.tsx';
import { GenderField } from './gender-field.tsx';
import { KindBadges } from './kind-badges.tsx';
import { roleText } from './labels.ts';
import { languageFilter, languageOptions } from './languages.ts';
import { SharedContact } from './shared-contact.tsx';

type Lists = TAccountEdit['selectLists'];

/** The account's name, its names and its kinds. */
export function AccountHeadCard({ f, record, officeAdmin }: { f: AccountFormApi; record: TAccount; officeAdmin: boolean }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="sm">
      <Group justify="space-between" align="flex-start" mb="xs">
        <Title order={2} size="h3" data-testid="account-name">
          {record.displayName || `#${record.id}`}
        </Title>
        <KindBadges account={f.form} />
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <AccountText f={f} k="lastName" label={t('accounts.ui.field.lastName')} required />
        <AccountText f={f} k="firstName" label={t('accounts.ui.field.firstName')} required />
        <AccountText f={f} k="middleName" label={t('accounts.ui.field.middleName')} />
      </SimpleGrid>
      {f.form.isCompany !== true && <GenderField value={f.form.gender} onChange={(v) => f.set('gender', v)} error={f.errors.gender} />}
      <Input.Wrapper label={t('accounts.ui.field.kinds')} mt="sm">
        <Chip.Group
          multiple
          value={KIND_FLAGS.filter((k) => f.form[k])}
          onChange={(v) => f.setForm((x) => ({ ...x, ...Object.fromEntries(KIND_FLAGS.map((k) => [k, (v as TKindFlag[]).includes(k)])) }))}
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
  );
}

/** What a client asks for: the budget, and (for a client) where they came from and the service. */
export function AccountRequestSection({ f, lists, testId }: { f: AccountFormApi; lists?: Lists; testId: string }) {
  const { t } = useTranslation();
  return (
    <EditSection title={t('accounts.ui.section.request')} testId={testId}>
      <AccountMoney f={f} k="purchaseBudgetRangeMin" label={t('accounts.ui.field.budgetFrom')} />
      <AccountMoney f={f} k="purchaseBudgetRangeMax" label={t('accounts.ui.field.budgetUpTo')} />
      {lists && (
        <>
          <AccountSelect f={f} k="sourceId" label={t('accounts.ui.field.source')} options={lists.sources} searchable />
          <AccountSelect f={f} k="service" label={t('accounts.ui.field.service')} options={lists.services} />
        </>
      )}
    </EditSection>
  );
}

/** The company the account is or works for. */
export function AccountCompanySection({ f, testId, withType }: { f: AccountFormApi; testId: string; withType: boolean }) {
  const { t } = useTranslation();
  return (
    <EditSection title={t('accounts.ui.section.company')} testId={testId}>
      <AccountTriState f={f} k="isCompany" label={t('accounts.ui.field.isCompany')} />
      <AccountTriState f={f} k="isIndividual" label={t('accounts.ui.field.isIndividual')} />
      <AccountText f={f} k="name" label={t('accounts.ui.field.companyName')} />
      <AccountText f={f} k="nameEng" label={t('accounts.ui.field.companyNameEng')} />
      <AccountText f={f} k="nameLocal" label={t('accounts.ui.field.companyNameLocal')} />
      {withType && <AccountText f={f} k="companyType" label={t('accounts.ui.field.companyType')} />}
    </EditSection>
  );
}

/** A professional's specialties, as one set of chips. */
export function AccountSpecialtyCard({ f }: { f: AccountFormApi }) {
  const { t } = useTranslation();
  return (
    <SectionCard title={t('accounts.ui.section.specialty')} testId="edit-specialty">
      <Chip.Group
        multiple
        value={SPECIALTIES.filter((s) => f.form[s])}
        onChange={(v) => f.setForm((x) => ({ ...x, ...Object.fromEntries(SPECIALTIES.map((s) => [s, (v as string[]).includes(s)])) }))}
      >
        <Group gap={6}>
          {SPECIALTIES.map((s) => (
            <Chip key={s} value={s} size="xs" data-testid={`field-${s}`}>
              {t(`accounts.ui.specialty.${s}`)}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
    </SectionCard>
  );
}

/**
 * The e-mails and phones. An employee's e-mails become sign-ins: only office admins change them (the
 * server says so too); a payments account's mail (its invitation, its approval links) goes there: not a branch's to change.
 */
export function AccountContactsCard({ f, id, emailsLocked, paymentsEmails }: { f: AccountFormApi; id: number; emailsLocked: boolean; paymentsEmails: boolean }) {
  const { t } = useTranslation();
  return (
    <SectionCard title={t('accounts.ui.section.contacts')} testId="edit-contacts">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <ListInputs
          label={t('accounts.ui.field.emails')}
          values={f.form.emails}
          max={MAX_EMAILS}
          name="email"
          type="email"
          disabled={emailsLocked || paymentsEmails}
          hint={emailsLocked ? t('accounts.ui.edit.emailsOfficeAdminOnly') : paymentsEmails ? t('accounts.ui.edit.emailsPaymentsOffice') : undefined}
          error={f.errors.email}
          onChange={(v) => f.set('emails', v)}
          below={(v, i) => <SharedContact kind="email" value={v} selfId={id} testId={`shared-email-${i}`} />}
        />
        <ListInputs
          label={t('accounts.ui.field.phones')}
          values={f.form.phones}
          max={MAX_PHONES}
          name="phone"
          type="tel"
          error={f.errors.phone}
          onChange={(v) => f.set('phones', v)}
          below={(v, i) => <SharedContact kind="phone" value={v} selfId={id} testId={`shared-phone-${i}`} />}
        />
      </SimpleGrid>
    </SectionCard>
  );
}

/** An employee's dates, role (changed on its own screen, as the password is) and branch. */
export function AccountEmployeSection({ f, id, officeAdmin, lists }: { f: AccountFormApi; id: number; officeAdmin: boolean; lists: Lists }) {
  const { t } = useTranslation();
  return (
    <EditSection title={t('accounts.ui.section.employe')} testId="edit-employe">
      <DateField label={t('accounts.ui.field.startDate')} value={f.form.startDate} onChange={(v) => f.set('startDate', v)} error={f.errors.startDate} data-testid="field-startDate" />
      <DateField label={t('accounts.ui.field.endDate')} value={f.form.endDate} onChange={(v) => f.set('endDate', v)} error={f.errors.endDate} data-testid="field-endDate" />
      <div>
        <Text size="sm" fw={500}>
          {t('accounts.ui.field.role')}
        </Text>
        <Group gap="sm">
          <Text size="sm">{roleText(t, f.form.role) || t('common.notSet')}</Text>
          {officeAdmin &&
            [
              { to: `/ChangeEmployeRole/${id}`, icon: <IconUserCog size={16} />, text: t('accounts.ui.employe.changeRole'), testId: 'change-role' },
              { to: `/SetPassword/${id}`, icon: <IconKey size={16} />, text: t('accounts.ui.employe.setPassword'), testId: 'set-password' },
            ].map((l) => (
              <Anchor key={l.testId} component={Link} to={l.to} size="sm" data-testid={l.testId}>
                <Group gap={4}>
                  {l.icon}
                  {l.text}
                </Group>
              </Anchor>
            ))}
        </Group>
      </div>
      <Select
        label={t('accounts.ui.field.branch')}
        data={[{ value: '', label: t('branch.notSet') }, ...selectOptions(lists.branches)]}
        value={f.form.branchId == null ? '' : String(f.form.branchId)}
        onChange={(v) => f.set('branchId', v ? Number(v) : null)}
        allowDeselect={false}
        disabled={!officeAdmin}
        description={officeAdmin ? undefined : t('accounts.ui.employe.branchAdminOnly')}
        error={f.errors.branchId}
        data-testid="field-branchId"
      />
    </EditSection>
  );
}

/** The expanded form's sections (view mode 2): the other spellings of the names, the documents, and what the short form leaves out. */
export function AccountMoreSections({ f, branch, isCompanyKind }: { f: AccountFormApi; branch: boolean; isCompanyKind: boolean }) {
  const { t } = useTranslation();
  const text = (k: 'lastNameEng' | 'firstNameEng' | 'middleNameEng' | 'lastNameLocal' | 'firstNameLocal' | 'middleNameLocal' | 'internalPassportNumber' | 'passportNumber' | 'taxNumber' | 'taxNumberOfOtherCountry') => (
    <AccountText f={f} k={k} label={t(`accounts.ui.field.${k}`)} />
  );
  return (
    <>
      <EditSection title={t('accounts.ui.section.names')} testId="edit-names">
        {text('lastNameEng')}
        {text('firstNameEng')}
        {text('middleNameEng')}
        {text('lastNameLocal')}
        {text('firstNameLocal')}
        {text('middleNameLocal')}
        <Select
          label={t('accounts.ui.field.language')}
          data={languageOptions(f.form.language)}
          value={f.form.language}
          onChange={(v) => f.set('language', v)}
          searchable
          filter={languageFilter}
          clearable
          error={f.errors.language}
          data-testid="field-language"
        />
        <AccountCountry f={f} k="country" label={t('accounts.ui.field.country')} />
        <AccountCountry f={f} k="nationality" label={t('accounts.ui.field.nationality')} />
      </EditSection>
      {!isCompanyKind && <AccountCompanySection f={f} testId="edit-company-other" withType />}
      <EditSection title={t('accounts.ui.section.documents')} testId="edit-documents">
        {text('internalPassportNumber')}
        {text('passportNumber')}
        {text('taxNumber')}
        {text('taxNumberOfOtherCountry')}
      </EditSection>
      {!f.form.isClient && <AccountRequestSection f={f} testId="edit-request-other" />}
      {!branch && (
        <Card withBorder padding="sm">
          <Switch label={t('accounts.ui.field.hasTransactions')} checked={f.form.hasTransactions} onChange={(e) => f.set('hasTransactions', e.currentTarget.checked)} data-testid="field-hasTransactions" />
        </Card>
      )}
    </>
  );
}
