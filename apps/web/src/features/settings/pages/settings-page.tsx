import { Alert, Anchor, Button, Card, Group, List, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { NewPasswordFields, newPasswordRules } from '../../../components/password-field.tsx';
import { useForm } from '@mantine/form';
import { useGuardedMutation } from '../../../lib/use-guarded-mutation.ts';
import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TLocalizationImportAnswer, TSiteSettings } from '@crm/contract';
import { LOCALIZATION_COLUMNS, LOCALIZATION_IMPORT_MAX_BYTES } from '@crm/contract/office-constants';
import { RENT_FEE_MAX, SALE_FEE_MAX, SITE_EMAIL, isAgencyPhone, isFeeNumber } from '@crm/contract/site-settings';
import { isGreekTaxNumber, isRegistryNumber } from '@crm/contract/account-fields';
import { SESSION } from '@crm/contract/resources';
import { DecimalField } from '../../../components/fields/decimal-field.tsx';
import { IconCloudUpload, IconFile } from '../../../components/icons.ts';
import { ApiError, call } from '../../../lib/api.ts';
import { showBanner } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { conflictMessage, mergeOnConflict } from '../../../lib/conflict-merge.ts';
import { checkUploads, describeLeftOut } from '../../../lib/upload-limits.ts';
import { exportEmails, exportLocalization, importLocalization, reloadTexts, saveSiteSettings, siteSettingsQuery } from '../api/settings.ts';
import { useFormLeaveGuard } from '../../../lib/unsaved-guard.tsx';

/** The texts' import takes one workbook of at most LOCALIZATION_IMPORT_MAX_BYTES. */
const IMPORT_LIMITS = { fileMaxBytes: LOCALIZATION_IMPORT_MAX_BYTES, requestMaxBytes: LOCALIZATION_IMPORT_MAX_BYTES, maxFiles: 1, photoTypes: [] };

/** /Settings (office administrators): links, the interface texts out and in, mailing lists, a password for any e-mail. */
export function SettingsPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="md" maw={1100}>
      <Title order={2}>{t('title.settings')}</Title>
      <Card withBorder padding="md">
        <Group gap="lg">
          <Anchor component={Link} to="/Sources" data-testid="settings-sources">
            {t('nav.sources')}
          </Anchor>
          <Anchor component={Link} to="/ActionLog" data-testid="settings-action-log">
            {t('title.actionLog')}
          </Anchor>
          <Anchor component={Link} to="/Jobs" data-testid="settings-jobs">
            {t('title.jobs')}
          </Anchor>
          <Anchor component={Link} to="/Import" data-testid="settings-import">
            {t('nav.import')}
          </Anchor>
          <Anchor href="#set-password" data-testid="settings-set-password-link">
            {t('title.setPassword')}
          </Anchor>
        </Group>
      </Card>
      <SiteCard />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <LocalizationCard />
        <MailingListsCard />
      </SimpleGrid>
      <SetPasswordCard />
    </Stack>
  );
}

type SiteForm = { name: string; phone: string; email: string; address: string; enquirySourceId: string; licence: string; taxNumber: string; saleFeePercent: number | ''; rentFeeMonths: number | '' };
const siteForm = (s: TSiteSettings): SiteForm => ({
  name: s.name ?? '',
  phone: s.phone ?? '',
  email: s.email ?? '',
  address: s.address ?? '',
  enquirySourceId: s.enquirySourceId == null ? '' : String(s.enquirySourceId),
  licence: s.licence ?? '',
  taxNumber: s.taxNumber ?? '',
  saleFeePercent: s.saleFeePercent ?? '',
  rentFeeMonths: s.rentFeeMonths ?? '',
});

/**
 * The agency's details on its public site (name, phone, e-mail, address): checked here as the
 * server checks them, saved with the version they were loaded at; another admin's save in between
 * is merged (what only this admin changed is kept) and named.
 */
function SiteCard() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const loaded = useQuery(siteSettingsQuery());
  const [base, setBase] = useState<TSiteSettings | null>(null);
  const [saved, setSaved] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const form = useForm<SiteForm>({
    initialValues: { name: '', phone: '', email: '', address: '', enquirySourceId: '', licence: '', taxNumber: '', saleFeePercent: '', rentFeeMonths: '' },
    validate: {
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
  useFormLeaveGuard(!!base && JSON.stringify(form.getValues()) !== JSON.stringify(siteForm(base)));
  const save = useGuardedMutation({
    mutationFn: (v: SiteForm) =>
      saveSiteSettings({
        ...v,
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
    <Card withBorder padding="md" data-testid="settings-site" maw={760}>
      <form onSubmit={form.onSubmit((v) => save.mutate(v))} noValidate>
        <Stack gap="sm">
          <Title order={3} size="h4">
            {t('settings.ui.site.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('settings.ui.site.hint')}
          </Text>
          {loaded.isError && (
            <Alert color="red" data-testid="settings-site-error">
              {describeError(loaded.error).message}
            </Alert>
          )}
          {saved && !form.isDirty() && (
            <Alert color="green" data-testid="settings-site-saved">
              {t('settings.ui.site.saved')}
            </Alert>
          )}
          {failed && (
            <Alert color="red" data-testid="settings-site-error">
              {failed}
            </Alert>
          )}
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
            <Select
              label={t('settings.ui.site.enquirySourceId')}
              description={t('settings.ui.site.enquirySourceHint')}
              inputWrapperOrder={HINT_BELOW}
              placeholder={t('settings.ui.site.enquirySourceNone')}
              data={(loaded.data?.sourceList ?? []).map((o) => ({ value: String(o.value), label: o.text }))}
              searchable
              clearable
              data-testid="settings-site-enquiry-source"
              {...form.getInputProps('enquirySourceId')}
              // None chosen is no value (its placeholder, no clear button), not an empty one.
              value={form.values.enquirySourceId || null}
              onChange={(v: string | null) => form.setFieldValue('enquirySourceId', v ?? '')}
            />
          </SimpleGrid>
          <Title order={4} size="h5" mt="xs">
            {t('settings.ui.site.sheetTitle')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('settings.ui.site.sheetHint')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label={t('settings.ui.site.licence')} maxLength={100} data-testid="settings-site-licence" {...form.getInputProps('licence')} />
            <TextInput label={t('settings.ui.site.taxNumber')} maxLength={20} inputMode="numeric" data-testid="settings-site-tax-number" {...form.getInputProps('taxNumber')} />
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
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending} disabled={!base} data-testid="settings-site-save">
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** Hints under their inputs: hints of different lengths above them set the two inputs of a row at different heights. */
const HINT_BELOW: ('label' | 'input' | 'description' | 'error')[] = ['label', 'input', 'description', 'error'];

function useDownload() {
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (what: string, fn: () => Promise<void>) => {
    if (busy) return;
    setBusy(what);
    try {
      await fn();
    } catch (e) {
      const d = describeError(e);
      showBanner(d.type, d.message, { details: d.details });
    } finally {
      setBusy(null);
    }
  };
  return [busy, run] as const;
}

function LocalizationCard() {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [busy, run] = useDownload();
  const [importing, setImporting] = useState(false);
  const [result, setResult] = useState<TLocalizationImportAnswer | null>(null);
  const [refused, setRefused] = useState<{ title: string; rows: [string, string][] } | null>(null);

  const upload = async (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file || importing) return;
    setResult(null);
    setRefused(null);
    // A workbook past the import's limit is refused here, before it is sent.
    const check = checkUploads([file], IMPORT_LIMITS);
    if (check.leftOut.length) {
      setRefused({ title: describeLeftOut(t, check, IMPORT_LIMITS, null)!, rows: [] });
      return;
    }
    setImporting(true);
    try {
      const answer = await importLocalization(file);
      setResult(answer);
      // The changed texts at once, in this browser too; other browsers take them on their next start.
      if (answer.changed) await reloadTexts();
    } catch (e) {
      if (e instanceof ApiError && e.status === 400 && e.problem.errors && Object.keys(e.problem.errors).length) {
        setRefused({ title: e.problem.title, rows: Object.entries(e.problem.errors).map(([row, msgs]) => [row, msgs.join(' ')]) });
      } else setRefused({ title: describeError(e).message, rows: [] });
    } finally {
      setImporting(false);
    }
  };

  return (
    <Card withBorder padding="md" data-testid="settings-localization">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('settings.ui.texts.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('settings.ui.texts.hint', { columns: LOCALIZATION_COLUMNS.join(', ') })}
        </Text>
        <Group>
          <Button variant="default" leftSection={<IconFile size={16} />} loading={busy === 'texts'} onClick={() => void run('texts', exportLocalization)} data-testid="settings-texts-export">
            {t('settings.ui.texts.export')}
          </Button>
          <input
            ref={input}
            type="file"
            hidden
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            data-testid="settings-texts-file"
            onChange={(e) => void upload(e.currentTarget.files?.[0])}
          />
          <Button leftSection={<IconCloudUpload size={16} />} loading={importing} onClick={() => input.current?.click()} data-testid="settings-texts-import">
            {t('settings.ui.texts.import')}
          </Button>
        </Group>
        {result && (
          <Alert color="green" data-testid="settings-texts-result">
            {result.changed
              ? `${t('settings.ui.texts.imported', { count: result.changed })} ${t('settings.ui.texts.rowsRead', { count: result.rows })}`
              : t('settings.ui.texts.unchanged', { count: result.rows })}
          </Alert>
        )}
        {refused && (
          <Alert color="red" title={refused.title} data-testid="settings-texts-refused">
            {refused.rows.length > 0 && (
              <List size="sm" spacing={2}>
                {refused.rows.map(([row, msg]) => (
                  <List.Item key={row} data-testid="settings-texts-error">
                    <Text span fw={600} size="sm">
                      {row.startsWith('row ') ? t('settings.ui.texts.row', { n: row.slice(4) }) : ''}
                    </Text>{' '}
                    {msg}
                  </List.Item>
                ))}
              </List>
            )}
          </Alert>
        )}
      </Stack>
    </Card>
  );
}

function MailingListsCard() {
  const { t } = useTranslation();
  const [busy, run] = useDownload();
  return (
    <Card withBorder padding="md" data-testid="settings-mailing">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('settings.ui.mailing.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('settings.ui.mailing.hint')}
        </Text>
        <Group>
          <Button variant="default" leftSection={<IconFile size={16} />} loading={busy === 'ru'} onClick={() => void run('ru', () => exportEmails(false))} data-testid="settings-emails-russian">
            {t('settings.ui.mailing.russian')}
          </Button>
          <Button variant="default" leftSection={<IconFile size={16} />} loading={busy === 'other'} onClick={() => void run('other', () => exportEmails(true))} data-testid="settings-emails-other">
            {t('settings.ui.mailing.other')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** The spec's failure text: an error array's descriptions, an errors map's values, the raw text, or the generic message. */
function describeSetPasswordError(e: unknown, generic: string): string {
  if (e instanceof ApiError) {
    const p = e.problem;
    if (Array.isArray(p.UserManager) && p.UserManager.length)
      return p.UserManager.map((x) => (typeof x === 'string' ? x : ((x as { description?: string }).description ?? ''))).join('\n');
    const values = Object.values(p.errors ?? {}).flat();
    if (values.length) return values.join('\n');
    return p.detail || p.title || generic;
  }
  return generic;
}

function SetPasswordCard() {
  const { t } = useTranslation();
  const form = useForm({
    initialValues: { email: '', password: '', confirmPassword: '' },
    validate: {
      email: (v) => (!v.trim() ? t('settings.ui.password.emailRequired') : null),
      ...newPasswordRules(t),
    },
  });
  const send = useGuardedMutation({
    mutationFn: (v: { email: string; password: string }) => call(SESSION.calls.setPassword, { body: v }),
    meta: { handlesErrors: true },
    onSuccess: () => form.setValues({ password: '', confirmPassword: '' }),
  });
  return (
    <Card withBorder padding="md" id="set-password" data-testid="settings-password" maw={560}>
      <form onSubmit={form.onSubmit((v) => send.mutate({ email: v.email.trim(), password: v.password }))} noValidate>
        <Stack gap="sm">
          <Title order={3} size="h4">
            {t('title.setPassword')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('settings.ui.password.hint')}
          </Text>
          {send.isSuccess && (
            <Alert color="green" data-testid="settings-password-success">
              {send.data.message}
            </Alert>
          )}
          {send.isError && (
            <Alert color="red" className="pre-line" data-testid="settings-password-error">
              {describeSetPasswordError(send.error, t('login.oops'))}
            </Alert>
          )}
          <TextInput label={t('settings.ui.password.email')} type="email" required autoComplete="off" data-testid="settings-password-email" {...form.getInputProps('email')} />
          <NewPasswordFields form={form} testIds={['settings-password-new', 'settings-password-confirm']} />
          <Group justify="flex-end">
            <Button type="submit" loading={send.isPending} data-testid="settings-password-submit">
              {t('accounts.ui.password.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
