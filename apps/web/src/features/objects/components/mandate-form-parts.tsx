// The mandate dialog's parts: its owners (their identity from their records, the tax office typed
// here) and its named exceptions.
import { Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import type { TMandateOwner } from '@crm/contract';
import { ACCOUNT, href } from '@crm/contract/resources';
import { AccountPicker } from '../../../components/account-picker.tsx';
import { IconPlus } from '../../../components/icons.ts';
import { RemoveButton } from '../../../components/remove-button.tsx';
import { FailureAlert } from '../../../components/failure-alert.tsx';

/** An owner as the form holds it: the account and its name; the identity once the server has read it. */
export type TOwnerDraft = Pick<TMandateOwner, 'accountId' | 'name'> & Partial<Omit<TMandateOwner, 'accountId' | 'name'>> & { taxOffice: string };
export type TExceptionDraft = { name: string; note: string };

const IDENTITY = ['fatherName', 'idNumber', 'taxNumber', 'address'] as const;

/** The owner's identity as the mandate's form needs it, and what their record still lacks. */
function OwnerIdentity({ o }: { o: TOwnerDraft }) {
  const { t } = useTranslation();
  if (o.fatherName === undefined) return <Text size="xs" c="dimmed">{t('mandates.owner.fromRecord')}</Text>;
  const parts = [
    o.fatherName && `${t('mandates.owner.fatherName')}: ${o.fatherName}`,
    o.idNumber && `${t('mandates.owner.idNumber')}: ${o.idNumber}`,
    o.passportNumber && `${t('mandates.owner.passportNumber')}: ${o.passportNumber}`,
    o.taxNumber && `${t('mandates.owner.taxNumber')}: ${o.taxNumber}`,
    o.address && `${t('mandates.owner.address')}: ${o.address}`,
  ].filter(Boolean);
  const missing = IDENTITY.filter((k) => !o[k] && !(k === 'idNumber' && o.passportNumber)).map((k) => t(`mandates.owner.${k}`));
  return (
    <Stack gap={2}>
      {parts.length > 0 && <Text size="xs">{parts.join(' · ')}</Text>}
      {missing.length > 0 && (
        <Text size="xs" c="orange.9" data-testid="mandate-owner-missing">
          {t('mandates.owner.missing', { fields: missing.join(', ') })}
        </Text>
      )}
    </Stack>
  );
}

export function MandateOwners({ owners, onChange, error }: { owners: TOwnerDraft[]; onChange: (o: TOwnerDraft[]) => void; error?: string }) {
  const { t } = useTranslation();
  const [picking, setPicking] = useState(false);
  return (
    <Stack gap="xs" data-testid="mandate-owners">
      <Title order={3} size="h6">
        {t('mandates.field.owners')}
      </Title>
      <FailureAlert failure={error} />
      {owners.map((o, i) => (
        <Stack key={o.accountId} gap={4} p="xs" style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 4 }} data-testid="mandate-owner">
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Anchor component={Link} to={href(ACCOUNT.screens.view, { id: o.accountId })} size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {o.name}
            </Anchor>
            <RemoveButton label={t('mandates.owner.remove', { name: o.name })} onClick={() => onChange(owners.filter((_, j) => j !== i))} />
          </Group>
          <OwnerIdentity o={o} />
          <TextInput
            label={t('mandates.owner.taxOffice')}
            value={o.taxOffice}
            maxLength={100}
            onChange={(e) => onChange(owners.map((x, j) => (j === i ? { ...x, taxOffice: e.currentTarget.value } : x)))}
            data-testid="mandate-owner-taxoffice"
          />
        </Stack>
      ))}
      {picking ? (
        <AccountPicker
          label={t('mandates.owner.add')}
          value={null}
          filter={0}
          autoFocus
          testId="mandate-owner-picker"
          onChange={(p) => {
            if (p && !owners.some((o) => o.accountId === p.id)) onChange([...owners, { accountId: p.id, name: p.text, taxOffice: '' }]);
            setPicking(false);
          }}
        />
      ) : (
        <Button variant="light" size="compact-sm" leftSection={<IconPlus size={14} />} onClick={() => setPicking(true)} style={{ alignSelf: 'flex-start' }} data-testid="mandate-owner-add">
          {t('mandates.owner.add')}
        </Button>
      )}
    </Stack>
  );
}

export function MandateExceptions({ items, onChange }: { items: TExceptionDraft[]; onChange: (e: TExceptionDraft[]) => void }) {
  const { t } = useTranslation();
  const set = (i: number, patch: Partial<TExceptionDraft>) => onChange(items.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  return (
    <Stack gap="xs" data-testid="mandate-exceptions">
      <Title order={3} size="h6">
        {t('mandates.field.exceptions')}
      </Title>
      <Text size="xs" c="dimmed">
        {t('mandates.exception.hint')}
      </Text>
      {items.map((x, i) => (
        <Group key={i} align="flex-end" gap="xs" wrap="wrap" data-testid="mandate-exception">
          <TextInput label={t('mandates.exception.name')} required value={x.name} maxLength={200} onChange={(e) => set(i, { name: e.currentTarget.value })} style={{ flex: '1 1 12rem' }} data-testid="mandate-exception-name" />
          <TextInput label={t('mandates.exception.note')} value={x.note} maxLength={1000} onChange={(e) => set(i, { note: e.currentTarget.value })} style={{ flex: '2 1 14rem' }} />
          <RemoveButton label={t('mandates.exception.remove')} onClick={() => onChange(items.filter((_, j) => j !== i))} size="lg" />
        </Group>
      ))}
      <Button variant="light" size="compact-sm" leftSection={<IconPlus size={14} />} onClick={() => onChange([...items, { name: '', note: '' }])} style={{ alignSelf: 'flex-start' }} data-testid="mandate-exception-add">
        {t('mandates.exception.add')}
      </Button>
    </Stack>
  );
}
