// The agency's details' fields, as the settings page and the set-up edit them (site-card.tsx).
import { Select, SimpleGrid, Text, TextInput, Title, type TextInputProps } from '@mantine/core';
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

/**
 * One of the agency's texts (`name`), labelled as the settings name it (`settings.ui.site.<name>`),
 * with its hint under the input, where it has one.
 */
export function SiteText({ form, name, hint, testId, ...input }: Omit<TextInputProps, 'form'> & { form: UseFormReturnType<SiteForm>; name: keyof SiteForm; hint?: string; testId: string }) {
  const { t } = useTranslation();
  return <TextInput label={t(`settings.ui.site.${name}`)} description={hint} inputWrapperOrder={hint ? HINT_BELOW : undefined} data-testid={testId} {...input} {...form.getInputProps(name)} />;
}

/** The names, contacts and web address; on the settings page (not the set-up) the enquiries' source too. */
export function ContactFields({ form, setup, sources }: { form: UseFormReturnType<SiteForm>; setup: boolean; sources: TSelectOption[] }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <SiteText form={form} name="name" hint={t('settings.ui.site.nameHint', { name: t('publishing.site.name') })} maxLength={100} autoComplete="organization" testId="settings-site-name" />
      <SiteText form={form} name="nameEl" hint={t('settings.ui.site.nameElHint')} maxLength={100} lang="el" testId="settings-site-name-el" />
      <SiteText form={form} name="phone" hint={t('settings.ui.site.phoneHint')} type="tel" maxLength={40} autoComplete="tel" testId="settings-site-phone" />
      <SiteText form={form} name="email" type="email" maxLength={200} autoComplete="email" testId="settings-site-email" />
      <SiteText form={form} name="address" maxLength={200} autoComplete="street-address" testId="settings-site-address" />
      <SiteText form={form} name="website" type="url" maxLength={200} autoComplete="url" testId="settings-site-website" />
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
        <SiteText form={form} name="licence" maxLength={100} testId="settings-site-licence" />
        <SiteText form={form} name="taxNumber" maxLength={20} inputMode="numeric" testId="settings-site-tax-number" />
        <SiteText form={form} name="taxOffice" maxLength={100} testId="settings-site-tax-office" />
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
