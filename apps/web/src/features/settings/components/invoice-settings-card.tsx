// The agency's tax data for its invoices and its myDATA credentials (decision 085), as the settings page edits them.
import { Alert, Button, Checkbox, Group, NumberInput, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TInvoiceSettings } from '@crm/contract';
import { isValidGreekVat } from '@crm/contract/invoice-fields';
import { INVOICE } from '@crm/contract/resources';
import { ApiError, call } from '../../../lib/api.ts';
import { showBanner } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { useGuardedMutation } from '../../../lib/use-guarded-mutation.ts';
import { TitledCard } from '../../../components/titled-card.tsx';

const KEY = ['invoices', 'settings'] as const;

/** The agency's ΑΦΜ and branch, the myDATA user name and subscription key (write-only: never shown again once saved). */
export function InvoiceSettingsCard() {
  const q = useQuery({ queryKey: KEY, queryFn: ({ signal }) => call(INVOICE.calls.settings, {}, { signal }) });
  if (!q.data) return null;
  return <InvoiceSettingsForm key={q.data.version} settings={q.data} />;
}

function InvoiceSettingsForm({ settings }: { settings: TInvoiceSettings }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [vatNumber, setVat] = useState(settings.vatNumber ?? '');
  const [branch, setBranch] = useState<number>(settings.branch);
  const [userId, setUserId] = useState(settings.userId ?? '');
  const [key, setKey] = useState('');
  const [clearKey, setClearKey] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useGuardedMutation({
    mutationFn: () => call(INVOICE.calls.saveSettings, { body: { version: settings.version, vatNumber: vatNumber.trim() || null, branch, userId: userId.trim() || null, subscriptionKey: key || null, clearKey } }),
    onSuccess: (next) => {
      qc.setQueryData(KEY, next);
      showBanner('success', t('invoices.settings.saved'));
    },
    onError: (e) => {
      if (e instanceof ApiError) setErrors(e.fieldErrors);
      const d = describeError(e);
      showBanner(d.type, d.message, { details: d.details });
    },
  });
  const submit = () => {
    if (save.isPending) return;
    const v = vatNumber.trim();
    if (v && !isValidGreekVat(v)) return setErrors({ vatNumber: t('invoices.vatInvalid') });
    setErrors({});
    save.mutate();
  };
  return (
    <TitledCard
      title={t('invoices.settings.title')}
      testId="invoice-settings"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput label={t('invoices.settings.vatNumber')} value={vatNumber} onChange={(e) => setVat(e.currentTarget.value)} error={errors.vatNumber} data-testid="invoice-settings-vat" />
        <NumberInput label={t('invoices.settings.branch')} value={branch} min={0} max={999999} allowDecimal={false} onChange={(v) => setBranch(Number(v) || 0)} />
        <TextInput label={t('invoices.settings.userId')} value={userId} onChange={(e) => setUserId(e.currentTarget.value)} autoComplete="off" data-testid="invoice-settings-user" />
        <TextInput
          label={t('invoices.settings.key')}
          type="password"
          autoComplete="new-password"
          value={key}
          onChange={(e) => setKey(e.currentTarget.value)}
          error={errors.subscriptionKey}
          description={settings.keySet ? t('invoices.settings.keySet') : undefined}
          data-testid="invoice-settings-key"
        />
      </SimpleGrid>
      {settings.keySet && <Checkbox label={t('invoices.settings.clearKey')} checked={clearKey} onChange={(e) => setClearKey(e.currentTarget.checked)} />}
      <Text size="sm" c="dimmed">
        {t('invoices.settings.endpoint')}: {settings.endpoint}
      </Text>
      {!(settings.userId && settings.keySet) && <Alert color="orange">{t('invoices.notTransmitted')}</Alert>}
      <Group>
        <Button type="submit" loading={save.isPending} data-testid="invoice-settings-save">
          {t('common.save')}
        </Button>
      </Group>
    </TitledCard>
  );
}
