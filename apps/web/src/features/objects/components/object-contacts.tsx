import { ActionIcon, Alert, Anchor, Badge, Button, Card, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { confirmAction } from '../../../components/confirm-action.tsx';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import type { TObjectAccount, TSelectOption } from '@crm/contract';
import { IconPencil, IconTrash, IconUserPlus } from '../../../components/icons.ts';
import { ApiError } from '../../../lib/api.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatDate, formatMoney2, formatMoney } from '../../../lib/format.ts';
import { AccountPicker } from '../../../components/account-picker.tsx';
import { DateField } from '../../../components/fields/date-field.tsx';
import { addObjectAccount, deleteObjectAccount, objectKeys, updateObjectAccount } from '../api/objects.ts';
import { currentContacts, endedTenantsByYear, rentPaymentDayText } from '../object-display.ts';
import { focusInvalidEntry } from '../../../components/fields/invalid-entry.ts';
import { DecimalField } from '../../../components/fields/decimal-field.tsx';
import { useDialogFrom } from '../../../lib/use-dialog-from.ts';
import { ACCOUNT, href } from '@crm/contract/resources';
import { FormButtons } from '../../../components/form-buttons.tsx';
import { FailureAlert } from '../../../components/failure-alert.tsx';

const money = (n: number | null | undefined) => (n == null ? '' : Number.isInteger(n) ? formatMoney(n) : formatMoney2(n));
const relationText = (l: TObjectAccount, relations: TSelectOption[]) => l.relationName || relations.find((o) => String(o.value) === String(l.relation))?.text || String(l.relation);

/** One link as a line: the account, its relation, the dates, the price and the payment day. */
function ContactLine({ link, relations, actions }: { link: TObjectAccount; relations: TSelectOption[]; actions?: React.ReactNode }) {
  const { t } = useTranslation();
  const dates = link.startDate || link.endDate ? `${link.startDate ? formatDate(link.startDate) : '…'} – ${link.endDate ? formatDate(link.endDate) : '…'}` : '';
  return (
    <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs" data-testid="contact-line" data-relation={link.relation} data-account={link.accountId}>
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Group gap={6} wrap="wrap">
          <Anchor component={Link} to={href(ACCOUNT.screens.view, { id: link.accountId })} size="sm" fw={600} data-testid="contact-account">
            {link.account || `#${link.accountId}`}
          </Anchor>
          <Badge size="sm" variant="light" tt="none" data-testid="contact-relation">
            {relationText(link, relations)}
          </Badge>
        </Group>
        {(dates || link.price != null || link.rentPaymentDay != null) && (
          <Text size="xs" c="dimmed">
            {[dates, link.price != null ? money(link.price) : '', link.rentPaymentDay != null ? t('objects.contacts.payDayShort', { text: rentPaymentDayText(t, link.rentPaymentDay) }) : '']
              .filter(Boolean)
              .join(' · ')}
          </Text>
        )}
      </Stack>
      {actions}
    </Group>
  );
}

/** Ended tenant links as year buttons (ascending); a click shows or hides that year's tenants. */
export function TenantYears({ links, relations }: { links: TObjectAccount[]; relations: TSelectOption[] }) {
  const { t } = useTranslation();
  const years = endedTenantsByYear(links);
  const [open, setOpen] = useState<number | null>(null);
  if (!years.length) return null;
  const shown = years.find(([y]) => y === open);
  return (
    <Stack gap={6} data-testid="tenant-years">
      <Text size="xs" c="dimmed">
        {t('objects.contacts.pastTenants')}
      </Text>
      <Group gap={6}>
        {years.map(([y, list]) => (
          <Button
            key={y}
            size="compact-sm"
            variant={open === y ? 'filled' : 'light'}
            aria-pressed={open === y}
            aria-expanded={open === y}
            onClick={() => setOpen(open === y ? null : y)}
            data-testid={`tenant-year-${y}`}
          >
            {y} ({list.length})
          </Button>
        ))}
      </Group>
      {shown && (
        <Stack gap={6} data-testid="tenant-year-list" pl="xs" style={{ borderLeft: '2px solid var(--mantine-color-gray-3)' }}>
          {shown[1].map((l) => (
            <ContactLine key={`${l.accountId}-${l.relation}-${l.endDate}`} link={l} relations={relations} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** The view's contacts card: current links, then the years of past tenants. */
export function ContactsCard({ links, relations }: { links: TObjectAccount[]; relations: TSelectOption[] }) {
  const { t } = useTranslation();
  const current = currentContacts(links);
  return (
    <Card withBorder padding="sm" data-testid="contacts-card">
      <Group gap="xs" mb="xs">
        <Title order={3} size="h5">
          {t('objects.section.contacts')}
        </Title>
        <Badge variant="light">{current.length}</Badge>
      </Group>
      <Stack gap="xs">
        {current.length ? (
          current.map((l) => <ContactLine key={`${l.accountId}-${l.relation}`} link={l} relations={relations} />)
        ) : (
          <Text size="sm" c="dimmed" data-testid="contacts-empty">
            {t('objects.contacts.none')}
          </Text>
        )}
        <TenantYears links={links} relations={relations} />
      </Stack>
    </Card>
  );
}

type Draft = { account: { id: number; text: string } | null; relation: string | null; startDate: string | null; endDate: string | null; price: number | ''; rentPaymentDay: number | '' };

/** The edit form's contacts: every link with edit and delete, and Add contact. */
export function ContactsEditor({ objectId, links, relations }: { objectId: number; links: TObjectAccount[]; relations: TSelectOption[] }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  // The button the dialog was opened from takes the focus back when it closes.
  const { editing, open, close } = useDialogFrom<TObjectAccount | 'new'>('[data-testid="contact-add"]');
  const [error, setError] = useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: objectKeys.all });

  const confirmDelete = (l: TObjectAccount) =>
    confirmAction(t, { title: t('objects.contacts.deleteTitle'), text: t('objects.contacts.deleteConfirm', { name: l.account ?? `#${l.accountId}`, relation: relationText(l, relations) }), testId: 'contact-delete-confirm', onConfirm: async () => {
        try {
          await deleteObjectAccount({ objectId, accountId: l.accountId, relation: l.relation });
          setError(null);
        } catch (e) {
          setError(describeError(e).message);
        }
        await refresh();
      },
    });

  const sorted = [...links].sort((a, b) => (a.endDate ?? '9999').localeCompare(b.endDate ?? '9999') * -1 || a.relation - b.relation);
  return (
    <Card withBorder padding="sm" data-testid="edit-contacts">
      <Group justify="space-between" mb="xs">
        <Group gap="xs">
          <Title order={3} size="h5">
            {t('objects.section.contacts')}
          </Title>
          <Badge variant="light">{links.length}</Badge>
        </Group>
        <Button size="xs" variant="light" leftSection={<IconUserPlus size={16} />} onClick={() => open('new')} data-testid="contact-add">
          {t('objects.contacts.add')}
        </Button>
      </Group>
      {error && (
        <Alert color="red" mb="xs" withCloseButton onClose={() => setError(null)} closeButtonLabel={t('common.close')}>
          {error}
        </Alert>
      )}
      <Stack gap="xs">
        {sorted.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('objects.contacts.none')}
          </Text>
        )}
        {sorted.map((l) => (
          <ContactLine
            key={`${l.accountId}-${l.relation}`}
            link={l}
            relations={relations}
            actions={
              <Group gap={2} wrap="nowrap">
                <Tooltip label={t('objects.contacts.edit')} withArrow>
                  <ActionIcon variant="subtle" onClick={() => open(l)} aria-label={t('objects.contacts.editOf', { name: l.account ?? '' })} data-testid="contact-edit">
                    <IconPencil size={16} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t('objects.contacts.delete')} withArrow>
                  <ActionIcon variant="subtle" color="red" onClick={() => confirmDelete(l)} aria-label={t('objects.contacts.deleteOf', { name: l.account ?? '' })} data-testid="contact-delete">
                    <IconTrash size={16} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            }
          />
        ))}
      </Stack>
      {editing && (
        <ContactDialog
          objectId={objectId}
          link={editing === 'new' ? null : editing}
          relations={relations}
          onClose={close}
          onSaved={async () => {
            close();
            setError(null);
            await refresh();
          }}
        />
      )}
    </Card>
  );
}

/** What the dialog refuses before sending: no account, no relation, an end before the start. */
function contactErrors(d: Draft, t: (key: string) => string): Record<string, string> {
  const errs: Record<string, string> = {};
  if (!d.account) errs.accountId = t('objects.contacts.accountRequired');
  if (!d.relation) errs.relation = t('objects.contacts.relationRequired');
  if (d.startDate && d.endDate && d.startDate > d.endDate) errs.endDate = t('objects.contacts.dateOrder');
  return errs;
}

/** Stores the link as the dialog left it: a new one, the same one changed, or (another relation) a new one in place of the old. */
async function storeContact(objectId: number, link: TObjectAccount | null, d: Draft) {
  const body = {
    objectId,
    accountId: d.account!.id,
    relation: Number(d.relation),
    startDate: d.startDate,
    endDate: d.endDate,
    price: d.price === '' ? null : d.price,
    rentPaymentDay: d.rentPaymentDay === '' ? null : d.rentPaymentDay,
  };
  if (!link) await addObjectAccount(body);
  else if (link.relation === body.relation) await updateObjectAccount(body);
  else {
    // The relation is part of the link's key: a new link, then the old one goes.
    await addObjectAccount(body);
    await deleteObjectAccount({ objectId, accountId: body.accountId, relation: link.relation });
  }
}

function ContactDialog({
  objectId,
  link,
  relations,
  onClose,
  onSaved,
}: {
  objectId: number;
  link: TObjectAccount | null;
  relations: TSelectOption[];
  onClose: () => void;
  onSaved: () => void | Promise<void>;
}) {
  const { t } = useTranslation();
  const [d, setD] = useState<Draft>(() => ({
    account: link ? { id: link.accountId, text: link.account ?? `#${link.accountId}` } : null,
    relation: link ? String(link.relation) : null,
    startDate: link?.startDate ?? null,
    endDate: link?.endDate ?? null,
    price: link?.price ?? '',
    rentPaymentDay: link?.rentPaymentDay ?? '',
  }));
  const [initial] = useState(d);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }));
  // Escape or a click beside the dialog closes it only while nothing was changed (Cancel gives changes up).
  const changed = JSON.stringify(d) !== JSON.stringify(initial);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (focusInvalidEntry(e.currentTarget as HTMLFormElement)) return;
    const errs = contactErrors(d, t);
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setSaving(true);
    setFormError(null);
    try {
      await storeContact(objectId, link, d);
      await onSaved();
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && Object.keys(err.fieldErrors).length) setErrors(err.fieldErrors);
      setFormError(describeError(err).message);
    } finally {
      setSaving(false);
    }
  };

  const payDay = d.rentPaymentDay === '' ? null : d.rentPaymentDay;
  return (
    <Modal
      opened
      onClose={onClose}
      closeOnEscape={!changed}
      closeOnClickOutside={!changed}
      title={link ? t('objects.contacts.edit') : t('objects.contacts.add')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={(e) => void submit(e)} data-testid="contact-form" noValidate>
        <Stack gap="sm">
          <FailureAlert failure={formError} testId="contact-form-error" />
          {link ? (
            <Text size="sm" fw={600}>
              {d.account?.text}
            </Text>
          ) : (
            <Stack gap={2}>
              <AccountPicker
                label={t('objects.contacts.account')}
                filter={0}
                value={d.account}
                onChange={(v) => set({ account: v })}
                testId="contact-account-picker"
                required
                autoFocus
              />
              {errors.accountId && (
                <Text size="xs" c="red.8">
                  {errors.accountId}
                </Text>
              )}
            </Stack>
          )}
          <Select
            label={t('objects.contacts.relation')}
            data={relations.map((o) => ({ value: String(o.value), label: o.text }))}
            value={d.relation}
            onChange={(v) => set({ relation: v })}
            allowDeselect={false}
            required
            error={errors.relation}
            comboboxProps={{ withinPortal: true }}
            data-testid="contact-relation-select"
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <DateField label={t('objects.contacts.startDate')} value={d.startDate} onChange={(v) => set({ startDate: v })} error={errors.startDate} data-testid="contact-start" />
            <DateField label={t('objects.contacts.endDate')} value={d.endDate} onChange={(v) => set({ endDate: v })} error={errors.endDate} data-testid="contact-end" />
            <DecimalField
              label={t('objects.contacts.price')}
              value={d.price}
              onChange={(v) => set({ price: v })}
              scale={2}
              padDecimals
              unit="€"
              error={errors.price}
              data-testid="contact-price"
            />
            <NumberInput
              label={t('objects.contacts.rentPaymentDay')}
              description={payDay != null ? rentPaymentDayText(t, payDay) : t('objects.contacts.payDay.hint')}
              value={d.rentPaymentDay}
              onChange={(v) => set({ rentPaymentDay: v === '' ? '' : Number(v) })}
              min={-27}
              max={31}
              allowDecimal={false}
              error={errors.rentPaymentDay}
              data-testid="contact-payday"
            />
          </SimpleGrid>
          <FormButtons onCancel={onClose} loading={saving} cancelDisabled={saving} testId="contact-save" gap="xs" />
        </Stack>
      </form>
    </Modal>
  );
}
