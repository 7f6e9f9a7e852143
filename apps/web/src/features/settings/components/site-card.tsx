// The agency's details on its public site, as the settings page edits them.
import { Alert, Button, Checkbox, Group } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useGuardedMutation } from '../../../lib/use-guarded-mutation.ts';
import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TSiteSettings } from '@crm/contract';
import { RENT_FEE_MAX, SALE_FEE_MAX, SITE_EMAIL, isAgencyPhone, isFeeNumber, isPublicAddress, isWebAddress } from '@crm/contract/site-settings';
import { isGreekTaxNumber, isRegistryNumber } from '@crm/contract/account-fields';
import { ApiError } from '../../../lib/api.ts';
import { showBanner } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { conflictMessage, mergeOnConflict } from '../../../lib/conflict-merge.ts';
import { saveSiteSettings, siteSettingsQuery } from '../api/settings.ts';
import { useFormLeaveGuard } from '../../../lib/unsaved-guard.tsx';
import { SiteLogo } from './site-logo.tsx';
import { ContactFields, SheetFields, SiteText, type SiteForm } from './site-card-fields.tsx';
import { FailureAlert } from '../../../components/failure-alert.tsx';
import { TitledCard } from '../../../components/titled-card.tsx';


const siteForm = (s: TSiteSettings): SiteForm => ({
  // In the order of the form's first values: the leave guard compares the two as JSON.
  name: s.name ?? '',
  nameEl: s.nameEl ?? '',
  phone: s.phone ?? '',
  email: s.email ?? '',
  address: s.address ?? '',
  website: s.website ?? '',
  enquirySourceId: s.enquirySourceId == null ? '' : String(s.enquirySourceId),
  licence: s.licence ?? '',
  taxNumber: s.taxNumber ?? '',
  taxOffice: s.taxOffice ?? '',
  publicUrl: s.publicUrl ?? '',
  saleFeePercent: s.saleFeePercent ?? '',
  rentFeeMonths: s.rentFeeMonths ?? '',
  mandateRequiredToPublish: s.mandateRequiredToPublish,
});

/**
 * The agency's details on its public site (name, phone, e-mail, address): checked here as the
 * server checks them, saved with the version they were loaded at; another admin's save in between
 * is merged (what only this admin changed is kept) and named.
 */
export function SiteCard({ setup }: { setup?: { onDone: () => void } } = {}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const loaded = useQuery(siteSettingsQuery());
  const [base, setBase] = useState<TSiteSettings | null>(null);
  const [saved, setSaved] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const form = useForm<SiteForm>({
    initialValues: { name: '', nameEl: '', phone: '', email: '', address: '', website: '', enquirySourceId: '', licence: '', taxNumber: '', taxOffice: '', publicUrl: '', saleFeePercent: '', rentFeeMonths: '', mandateRequiredToPublish: false },
    validate: {
      website: (v) => (v.trim() && !isWebAddress(v.trim()) ? t('validation.website') : null),
      publicUrl: (v) => (v.trim() && !isPublicAddress(v.trim()) ? t('validation.publicUrl') : null),
      phone: (v) => (v.trim() && !isAgencyPhone(v.trim()) ? t('validation.sitePhone') : null),
      email: (v) => (v.trim() && !SITE_EMAIL.test(v.trim()) ? t('validation.email') : null),
      licence: (v) => (v.trim() && !isRegistryNumber(v) ? t('validation.agencyLicence') : null),
      taxNumber: (v) => (v.trim() && !isGreekTaxNumber(v.trim()) ? t('validation.agencyTaxNumber') : null),
      saleFeePercent: (v) => (v !== '' && !isFeeNumber(v, SALE_FEE_MAX) ? t('validation.saleFee') : null),
      rentFeeMonths: (v) => (v !== '' && !isFeeNumber(v, RENT_FEE_MAX) ? t('validation.rentFee') : null),
    },
  });
  useEffect(() => {
    if (loaded.data && !base) {
      setBase(loaded.data);
      form.setValues(siteForm(loaded.data));
      form.resetDirty(siteForm(loaded.data));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded.data, base]);
  // Typed and not saved: leaving the page asks first, as every Save-button form does.
  const guard = useFormLeaveGuard(!!base && JSON.stringify(form.getValues()) !== JSON.stringify(siteForm(base)));
  const save = useGuardedMutation({
    mutationFn: (v: SiteForm) =>
      saveSiteSettings({
        ...v,
        // The set-up's Save (and its Skip) mark it done.
        ...(setup ? { setupDone: true } : {}),
        enquirySourceId: v.enquirySourceId ? Number(v.enquirySourceId) : null,
        saleFeePercent: v.saleFeePercent === '' ? null : v.saleFeePercent,
        rentFeeMonths: v.rentFeeMonths === '' ? null : v.rentFeeMonths,
        version: base!.version,
      }),
    meta: { handlesErrors: true },
    onMutate: () => {
      setSaved(false);
      setFailed(null);
    },
    onSuccess: (answer) => {
      setBase(answer);
      form.setValues(siteForm(answer));
      form.resetDirty(siteForm(answer));
      client.setQueryData(siteSettingsQuery().queryKey, (old) => (old ? { ...old, ...answer } : old));
      setSaved(true);
      if (setup) {
        // The links' address may have changed: the warning and the banner read it again.
        void client.invalidateQueries({ queryKey: siteSettingsQuery().queryKey });
        // Saved: the set-up moves on without asking about changes.
        guard.release();
        setup.onDone();
      }
    },
    onError: (e) => {
      if (e instanceof ApiError && e.status === 409 && e.problem.current && base) {
        const theirs = e.problem.current as TSiteSettings;
        const m = mergeOnConflict(siteForm(base), form.getValues(), siteForm(theirs));
        setBase(theirs);
        form.setValues(m.next);
        client.setQueryData(siteSettingsQuery().queryKey, (old) => (old ? { ...old, ...theirs } : old));
        showBanner('warning', conflictMessage(t, e.problem.title, m, (k) => t(`settings.ui.site.${k}`)));
      } else if (e instanceof ApiError && e.status === 400 && Object.keys(e.fieldErrors).length) {
        form.setErrors(e.fieldErrors);
      } else setFailed(describeError(e).message);
    },
  });
  return (
    <TitledCard title={t('settings.ui.site.title')} hint={t('settings.ui.site.hint')} testId="settings-site" maw={760} onSubmit={form.onSubmit((v) => save.mutate(v))}>
      <FailureAlert failure={loaded.error} testId="settings-site-error" />
      {saved && !form.isDirty() && (
        <Alert color="green" data-testid="settings-site-saved">
          {t('settings.ui.site.saved')}
        </Alert>
      )}
      <FailureAlert failure={failed} testId="settings-site-error" />
      <ContactFields form={form} setup={!!setup} sources={loaded.data?.sourceList ?? []} />
      <SheetFields form={form} />
      {!setup && (
        <Checkbox
          label={t('settings.ui.site.mandateRequiredToPublish')}
          description={t('settings.ui.site.mandateRequiredToPublishHint')}
          data-testid="settings-site-mandate-required"
          {...form.getInputProps('mandateRequiredToPublish', { type: 'checkbox' })}
        />
      )}
      <SiteText form={form} name="publicUrl" hint={t('settings.ui.site.publicUrlHint', { url: loaded.data?.linkBase ?? '' })} type="url" maxLength={200} placeholder="https://crm.example.gr" testId="settings-site-public-url" />
      {loaded.data?.linksLocal && (
        <Alert color="yellow" data-testid="settings-site-links-local">
          {t('settings.ui.site.linksLocal', { url: loaded.data.linkBase })}
        </Alert>
      )}
      {base && (
        <SiteLogo
          settings={base}
          onSaved={(answer) => {
            setBase(answer);
            client.setQueryData(siteSettingsQuery().queryKey, (old) => (old ? { ...old, ...answer } : old));
          }}
        />
      )}
      <Group justify="flex-end">
        {setup && (
          <Button variant="default" disabled={!base} loading={save.isPending} onClick={() => base && save.mutate(siteForm(base))} data-testid="setup-skip">
            {t('settings.ui.setup.skip')}
          </Button>
        )}
        <Button type="submit" loading={save.isPending} disabled={!base} data-testid="settings-site-save">
          {setup ? t('settings.ui.setup.save') : t('common.save')}
        </Button>
      </Group>
    </TitledCard>
  );
}

