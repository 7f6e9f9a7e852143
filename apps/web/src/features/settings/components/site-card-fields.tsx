// The agency's details' fields, as the settings page and the set-up edit them (site-card.tsx).
import { Select, SimpleGrid, Text, TextInput, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TSelectOption } from '@crm/contract';
import { RENT_FEE_MAX, SALE_FEE_MAX } from '@crm/contract/site-settings';
import { DecimalField } from '../../../components/fields/decimal-field.tsx';

/** The form's values (texts as typed; a fee not typed is ''). */
export type SiteForm = {
  name: string; nameEl: string; phone: string; email: string; address: string; website: string; enquirySourceId: string;
  licence: string; taxNumber: string; taxOffice: string; publicUrl: string; saleFeePercent: number | ''; rentFeeMonths: number | '';
  mandateRequiredToPublish: boolean;
};

/** Hints under their inputs: hints of different lengths above them set the two inputs of a row at different heights. */
export const HINT_BELOW: ('label' | 'input' | 'description' | 'error')[] = ['label', 'input', 'description', 'error'];

/** The names, contacts and web address; on the settings page (not the set-up) the enquiries' source too. */
export function ContactFields({ form, setup, sources }: { form: UseFormReturnType<SiteForm>; setup: boolean; sources: TSelectOption[] }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <TextInput
        label={t('settings.ui.site.name')}
        description={t('settings.ui.site.nameHint', { name: t('publishing.site.name') })}
        inputWrapperOrder={HINT_BELOW}
        maxLength={100}
        autoComplete="organization"
        data-testid="settings-site-name"
        {...form.getInputProps('name')}
      />
      <TextInput
        label={t('settings.ui.site.nameEl')}
        description={t('settings.ui.site.nameElHint')}
        inputWrapperOrder={HINT_BELOW}
        maxLength={100}
        lang="el"
        data-testid="settings-site-name-el"
        {...form.getInputProps('nameEl')}
      />
      <TextInput
        label={t('settings.ui.site.phone')}
        description={t('settings.ui.site.phoneHint')}
        inputWrapperOrder={HINT_BELOW}
        type="tel"
        maxLength={40}
        autoComplete="tel"
        data-testid="settings-site-phone"
        {...form.getInputProps('phone')}
      />
      <TextInput label={t('settings.ui.site.email')} type="email" maxLength={200} autoComplete="email" data-testid="settings-site-email" {...form.getInputProps('email')} />
      <TextInput label={t('settings.ui.site.address')} maxLength={200} autoComplete="street-address" data-testid="settings-site-address" {...form.getInputProps('address')} />
      <TextInput label={t('settings.ui.site.website')} type="url" maxLength={200} autoComplete="url" data-testid="settings-site-website" {...form.getInputProps('website')} />
      {!setup && (
      <Select
        label={t('settings.ui.site.enquirySourceId')}
        description={t('settings.ui.site.enquirySourceHint')}
        inputWrapperOrder={HINT_BELOW}
        placeholder={t('settings.ui.site.enquirySourceNone')}
        data={sources.map((o) => ({ value: String(o.value), label: o.text }))}
        searchable
        clearable
        data-testid="settings-site-enquiry-source"
        {...form.getInputProps('enquirySourceId')}
        // None chosen is no value (its placeholder, no clear button), not an empty one.
        value={form.values.enquirySourceId || null}
        onChange={(v: string | null) => form.setFieldValue('enquirySourceId', v ?? '')}
      />
      )}
    </SimpleGrid>
  );
}

/** The viewing sheet's: the registry and tax numbers, the tax office and the fees. */
export function SheetFields({ form }: { form: UseFormReturnType<SiteForm> }) {
  const { t } = useTranslation();
  return (
    <>
      <Title order={4} size="h5" mt="xs">
        {t('settings.ui.site.sheetTitle')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('settings.ui.site.sheetHint')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput label={t('settings.ui.site.licence')} maxLength={100} data-testid="settings-site-licence" {...form.getInputProps('licence')} />
        <TextInput label={t('settings.ui.site.taxNumber')} maxLength={20} inputMode="numeric" data-testid="settings-site-tax-number" {...form.getInputProps('taxNumber')} />
        <TextInput label={t('settings.ui.site.taxOffice')} maxLength={100} data-testid="settings-site-tax-office" {...form.getInputProps('taxOffice')} />
        <DecimalField
          label={t('settings.ui.site.saleFeePercent')}
          description={t('settings.ui.site.feeHint')}
          inputWrapperOrder={HINT_BELOW}
          scale={2}
          unit="%"
          min={0}
          max={SALE_FEE_MAX}
          data-testid="settings-site-sale-fee"
          value={form.values.saleFeePercent}
          onChange={(v) => form.setFieldValue('saleFeePercent', v)}
          error={form.errors.saleFeePercent}
        />
        <DecimalField
          label={t('settings.ui.site.rentFeeMonths')}
          description={t('settings.ui.site.feeHint')}
          inputWrapperOrder={HINT_BELOW}
          scale={2}
          min={0}
          max={RENT_FEE_MAX}
          data-testid="settings-site-rent-fee"
          value={form.values.rentFeeMonths}
          onChange={(v) => form.setFieldValue('rentFeeMonths', v)}
          error={form.errors.rentFeeMonths}
        />
      </SimpleGrid>
    </>
  );
}
