import { Anchor, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { SectionCard } from '../../../components/titled-card.tsx';
import type { ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { FieldGrid } from '../../../kit/field-group.tsx';
import { EditableField } from '../../../components/field-editor.tsx';
import { accountKeys } from '../api/account.ts';
import { sendStaffInvitation } from '../api/employe.ts';
import { Link } from 'react-router';
import type { TAccount } from '@crm/contract';
import { IconKey, IconMail, IconUserCog } from '../../../components/icons.ts';
import { showBanner } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { useGuardedMutation } from '../../../lib/use-guarded-mutation.ts';
import { formatDate } from '../../../lib/format.ts';
import { hasBranch, isOfficeAdmin, useSession } from '../../../lib/session.ts';
import { SPECIALTIES, splitList } from '../account-fields.ts';
import { ObjectRefs } from '../../../components/account-columns.tsx';
import { MessageMenu } from '../../../components/message-menu.tsx';
import { KindBadges } from './kind-badges.tsx';
import { branchText, roleText } from './labels.ts';
import { languageName } from './languages.ts';
import { formatBudget } from './budget.ts';
import { ACCOUNT, LEAD, href } from '@crm/contract/resources';

const joinNames = (...parts: (string | null | undefined)[]) => parts.map((p) => p?.trim()).filter(Boolean).join(' ');

/** One read-only value with its label; nothing when the value is empty. */
function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  if (children === null || children === undefined || children === '' || children === false) return null;
  return (
    <div data-testid={testId}>
      <Text size="xs" c="dimmed">{label}</Text>
      <Text size="sm" component="div">{children}</Text>
    </div>
  );
}

/** A titled block shown only when at least one of its values is there. */
function Section({ title, show, children, testId }: { title: string; show: boolean; children: ReactNode; testId?: string }) {
  if (!show) return null;
  return (
    <SectionCard title={title} testId={testId}><ValueGrid>{children}</ValueGrid></SectionCard>
  );
}

function ValueGrid({ children, mt }: { children: ReactNode; mt?: string }) {
  return (
    <FieldGrid mt={mt}>{children}</FieldGrid>
  );
}

/** The properties the account owns, bought, rented (owned: `ownedNone` when there are none). */
function ObjectFields({ a, ownedNone }: { a: TAccount; ownedNone?: string }) {
  const { t } = useTranslation();
  const refs = (r: string, none: ReactNode = null) => (r.trim() ? <ObjectRefs refs={r} /> : none);
  return (
    <>
      {ownedNone !== undefined && (
        <Field label={t('accounts.ui.field.ownedObjects')} testId="view-owned">{refs(a.ownedObjectsReferenceNumbers, ownedNone || null)}</Field>
      )}
      <Field label={t('accounts.ui.field.boughtObjects')} testId="view-bought">{refs(a.boughtObjectsReferenceNumbers)}</Field>
      <Field label={t('accounts.ui.field.rentedObjects')} testId="view-rented">{refs(a.rentedObjectsReferenceNumbers)}</Field>
    </>
  );
}

/** The account's read-only page (view mode 0). */
export function AccountDetails({ account: a }: { account: TAccount }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const session = useSession();
  const emails = splitList(a.email);
  const phones = splitList(a.phone);
  const engName = joinNames(a.lastNameEng, a.firstNameEng, a.middleNameEng);
  const localName = joinNames(a.lastNameLocal, a.firstNameLocal, a.middleNameLocal);

  // An erased person (GDPR): a number, the badge, and only what the law keeps (the properties of its deals).
  if (a.erasedOn) return <ErasedDetails account={a} />;

  return (
    <Stack gap="sm" data-testid="account-details">
      <HeadCard a={a} />
      {a.isEmploye && !hasBranch(session) && <EmployeCard a={a} emails={emails} />}

      <Section title={t('accounts.ui.section.contacts')} show={emails.length > 0 || phones.length > 0} testId="view-contacts">
        <Field label={t('accounts.ui.field.emails')} testId="view-emails">
          <LinkList items={emails} href={(e) => `mailto:${e}`} />
        </Field>
        <Field label={t('accounts.ui.field.phones')} testId="view-phones">
          <PhoneList phones={phones} accountId={a.id} />
        </Field>
      </Section>

      <Section title={t('accounts.ui.section.names')} show={!!(engName || localName || a.nameEng || a.nameLocal || a.gender || a.language || a.nationality || a.country)} testId="view-names">
        <Field label={t('accounts.ui.field.nameInEnglish')}>{engName}</Field>
        <Field label={t('accounts.ui.field.companyNameEng')}>{a.nameEng}</Field>
        <Field label={t('accounts.ui.field.nameInLocal')}>{localName}</Field>
        <Field label={t('accounts.ui.field.companyNameLocal')}>{a.nameLocal}</Field>
        <Field label={t('accounts.ui.field.gender')} testId="view-gender">{a.gender ? t(`accounts.ui.gender.${a.gender}`) : null}</Field>
        <Field label={t('accounts.ui.field.language')} testId="view-language">{languageName(a.language)}</Field>
        <Field label={t('accounts.ui.field.nationality')}>{a.nationality}</Field>
        <Field label={t('accounts.ui.field.country')}>{a.country}</Field>
      </Section>

      <Section title={t('accounts.ui.section.documents')} show={!!(a.internalPassportNumber || a.passportNumber || a.taxNumber || a.taxNumberOfOtherCountry)} testId="view-documents">
        <Field label={t('accounts.ui.field.internalPassportNumber')}>{a.internalPassportNumber}</Field>
        <Field label={t('accounts.ui.field.passportNumber')}>{a.passportNumber}</Field>
        <Field label={t('accounts.ui.field.taxNumber')}>{a.taxNumber}</Field>
        <Field label={t('accounts.ui.field.taxNumberOfOtherCountry')}>{a.taxNumberOfOtherCountry}</Field>
      </Section>

      <Section title={t('accounts.ui.section.address')} show={!!(a.city || a.postcode || a.address)} testId="view-address">
        <Field label={t('accounts.ui.field.city')} testId="view-city">{a.city}</Field>
        <Field label={t('accounts.ui.field.postcode')}>{a.postcode}</Field>
        <Field label={t('accounts.ui.field.address')}>{a.address}</Field>
      </Section>

      <Section title={t('accounts.ui.section.company')} show={!!a.companyType} testId="view-company"><Field label={t('accounts.ui.field.companyType')}>{a.companyType}</Field></Section>

      {a.isProfessional && <SpecialtyCard a={a} />}

      {a.leads.length > 0 && (
        <SectionCard title={t('accounts.ui.section.leads')} testId="view-leads">
          <Stack gap={4}>
            {a.leads.map((l) => (
              <Anchor key={l.id} component={Link} to={href(LEAD.screens.view, { id: l.id })} size="sm">#{l.id} {l.descr}</Anchor>
            ))}
          </Stack>
        </SectionCard>
      )}

      <SectionCard title={t('accounts.ui.field.notes')} testId="view-notes">
        {/* Notes are jotted down without switching to edit: the single-field editor. */}
        <EditableField
          entity="account"
          id={a.id}
          field="notes"
          type="textarea"
          label={t('accounts.ui.field.notes')}
          hideLabel
          value={a.notes}
          version={a.version}
          onSaved={() => void qc.invalidateQueries({ queryKey: accountKeys.all })}
        />
      </SectionCard>
    </Stack>
  );
}

/** Addresses or numbers, one link each (nothing when there are none). */
function LinkList({ items, href: to }: { items: string[]; href: (item: string) => string }) {
  if (!items.length) return null;
  return (
    <Stack gap={2}>
      {items.map((e) => (
        <Anchor key={e} href={to(e)} size="sm">{e}</Anchor>
      ))}
    </Stack>
  );
}

/** The account's phones: each a tap from a call (tel:) or a message by Viber, WhatsApp or SMS with a ready text. */
function PhoneList({ phones, accountId }: { phones: string[]; accountId: number }) {
  if (!phones.length) return null;
  return (
    <Stack gap={4}>
      {phones.map((p) => (
        <Group key={p} gap="xs" wrap="nowrap">
          <Anchor href={`tel:${p.replace(/[^\d+]/g, '')}`} size="sm">{p}</Anchor>
          <MessageMenu accountId={accountId} phone={p} testId="account-message" />
        </Group>
      ))}
    </Stack>
  );
}

/** The name, kinds, budget and properties of the account. */
function HeadCard({ a }: { a: TAccount }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="sm">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} size="h3" data-testid="account-name">{a.displayName || `#${a.id}`}</Title>
          {a.isCompany && a.name && (
            <Text c="dimmed" size="sm" data-testid="company-name">{t('accounts.ui.field.companyName')}: {a.name}</Text>
          )}
        </div>
        <KindBadges account={a} />
      </Group>
      <ValueGrid mt="sm">
        {a.isClient && (
          <Field label={t('accounts.ui.field.budget')} testId="view-budget">
            {formatBudget(t, a.purchaseBudgetRangeMin, a.purchaseBudgetRangeMax) ||
              (a.leadBudget ? (
                // Not set on the account: the open lead's, as the Clients list shows it, with the lead it comes from.
                <>
                  {formatBudget(t, a.leadBudget.min, a.leadBudget.max)}{' '}
                  <Anchor component={Link} to={href(LEAD.screens.view, { id: a.leadBudget.leadId })} size="sm" data-testid="view-budget-lead">
                    {t('accounts.ui.budget.fromLead', { id: a.leadBudget.leadId })}
                  </Anchor>
                </>
              ) : (
                t('common.notSet')
              ))}
          </Field>
        )}
        <ObjectFields a={a} ownedNone={a.isOwner ? t('accounts.ui.view.none') : undefined} />
      </ValueGrid>
    </Card>
  );
}

/** An employee's work period, role, branch and sign-in; for an office admin, the links to change them. */
function EmployeCard({ a, emails }: { a: TAccount; emails: string[] }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const admin = isOfficeAdmin(useSession());
  const period = a.startDate || a.endDate ? `${formatDate(a.startDate) || '…'} – ${formatDate(a.endDate) || '…'}` : '';
  // The invitation goes to the address the employee signs in with, else to the account's first.
  const inviteTo = a.signIn ?? emails[0];
  const invite = useGuardedMutation({
    mutationFn: (email: string) => sendStaffInvitation(email),
    meta: { handlesErrors: true },
    onSuccess: (res) => {
      showBanner('success', res.message);
      void qc.invalidateQueries({ queryKey: accountKeys.view(a.id) });
    },
    onError: (e) => {
      const d = describeError(e);
      showBanner(d.type, d.message);
    },
  });
  return (
    <SectionCard title={t('accounts.ui.section.employe')} testId="view-employe">
      <ValueGrid>
        <Field label={t('accounts.ui.field.workPeriod')}>{period || t('common.notSet')}</Field>
        <Field label={t('accounts.ui.field.role')} testId="view-role">{roleText(t, a.role) || t('common.notSet')}</Field>
        <Field label={t('accounts.ui.field.branch')} testId="view-branch">{branchText(t, a.branchId)}</Field>
        <Field label={t('accounts.ui.field.signIn')}>{a.signIn ?? t('accounts.ui.employe.noSignIn')}</Field>
      </ValueGrid>
      {admin && (
        <Group gap="md" mt="xs">
          {(
            [
              [href(ACCOUNT.screens.role, { id: a.id }), 'change-role', IconUserCog, t('accounts.ui.employe.changeRole')],
              [href(ACCOUNT.screens.setPassword, { id: a.id }), 'set-password', IconKey, t('accounts.ui.employe.setPassword')],
            ] as const
          ).map(([to, testId, Icon, text]) => (
            <Anchor key={testId} component={Link} to={to} size="sm" data-testid={testId}>
              <Group gap={4}>
                <Icon size={16} />
                {text}
              </Group>
            </Anchor>
          ))}
          {inviteTo && (
            <Button variant="subtle" size="compact-sm" leftSection={<IconMail size={16} />} loading={invite.isPending} onClick={() => invite.mutate(inviteTo)} data-testid="send-invitation">
              {t('accounts.ui.employe.sendInvitation')}
            </Button>
          )}
        </Group>
      )}
    </SectionCard>
  );
}

/** A professional's specialties and the properties they sold. */
function SpecialtyCard({ a }: { a: TAccount }) {
  const { t } = useTranslation();
  const specialties = SPECIALTIES.filter((s) => a[s]);
  return (
    <SectionCard title={t('accounts.ui.section.specialty')} testId="view-specialty">
      {specialties.length ? (
        <Group gap={6}>
          {specialties.map((s) => (
            <Badge key={s} variant="light" tt="none">{t(`accounts.ui.specialty.${s}`)}</Badge>
          ))}
        </Group>
      ) : (
        <Text size="sm" c="dimmed">{t('accounts.ui.view.noSpecialty')}</Text>
      )}
      {a.numberOfSoldObjects > 0 && (
        <Text size="sm" mt="xs">{t('accounts.ui.col.soldObjects')}: {a.numberOfSoldObjects}</Text>
      )}
    </SectionCard>
  );
}

/** An account whose person's data was erased: its number as a name, the badge, when, and the deals' properties kept. */
function ErasedDetails({ account: a }: { account: TAccount }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="account-details">
      <Card withBorder padding="sm" data-testid="account-erased">
        <Group justify="space-between" align="flex-start">
          <Title order={2} size="h3" data-testid="account-name">{t('accounts.ui.privacy.erasedName', { number: `#${a.id}` })}</Title>
          <Group gap={4}>
            <Badge color="gray" variant="filled" tt="none" data-testid="erased-badge">{t('accounts.ui.privacy.erasedBadge')}</Badge>
            <KindBadges account={a} />
          </Group>
        </Group>
        <Text size="sm" mt="xs" data-testid="erased-note">{t('accounts.ui.privacy.erasedNote', { date: formatDate(a.erasedOn) })}</Text>
        <ValueGrid mt="sm"><ObjectFields a={a} ownedNone="" /></ValueGrid>
      </Card>
    </Stack>
  );
}
