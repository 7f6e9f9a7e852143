import { Alert, Anchor, Button, Card, Group, List, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { NewPasswordFields, newPasswordRules } from '../../../components/password-field.tsx';
import { useForm } from '@mantine/form';
import { useGuardedMutation } from '../../../lib/use-guarded-mutation.ts';
import { useRef, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import type { TLocalizationImportAnswer } from '@crm/contract';
import { LOCALIZATION_COLUMNS, LOCALIZATION_IMPORT_MAX_BYTES } from '@crm/contract/office-constants';
import { API_KEY, DOC_TEMPLATE, MAILBOX, SESSION, WEBHOOK, href } from '@crm/contract/resources';
import { IconCloudUpload, IconFile } from '../../../components/icons.ts';
import { ApiError, call } from '../../../lib/api.ts';
import { showBanner } from '../../../lib/banner.ts';
import { describeError, describeSetPasswordError } from '../../../lib/errors.ts';
import { checkUploads, describeLeftOut } from '../../../lib/upload-limits.ts';
import { exportEmails, exportLocalization, importLocalization, reloadTexts } from '../api/settings.ts';
import { SiteCard } from '../components/site-card.tsx';
import { MailPreviewCard } from '../components/mail-preview-card.tsx';
import { PortalChannelsCard } from '../components/portal-channels-card.tsx';
import { InvoiceSettingsCard } from '../components/invoice-settings-card.tsx';
import { TitledCard } from '../../../components/titled-card.tsx';

/** The texts' import takes one workbook of at most LOCALIZATION_IMPORT_MAX_BYTES. */
const IMPORT_LIMITS = { fileMaxBytes: LOCALIZATION_IMPORT_MAX_BYTES, requestMaxBytes: LOCALIZATION_IMPORT_MAX_BYTES, maxFiles: 1, photoTypes: [] };

/** The office's other screens, linked at the top of Settings: where, its title, its test id's end. */
const SETTINGS_LINKS: readonly (readonly [to: string, text: string, testId: string])[] = [
  ['/Sources', 'nav.sources', 'sources'],
  ['/ActionLog', 'title.actionLog', 'action-log'],
  ['/Jobs', 'title.jobs', 'jobs'],
  ['/Import', 'nav.import', 'import'],
  [href(API_KEY.screens.list), 'title.apiKeys', 'api-keys'],
  [href(WEBHOOK.screens.list), 'title.webhooks', 'webhooks'],
  [href(MAILBOX.screens.list), 'title.mailboxes', 'mailboxes'],
  [href(DOC_TEMPLATE.screens.templates), 'title.documentTemplates', 'doc-templates'],
];

/** /Settings (office administrators): links, the interface texts out and in, mailing lists, a password for any e-mail. */
export function SettingsPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="md" maw={1100}>
      <Title order={2}>{t('title.settings')}</Title>
      <Card withBorder padding="md">
        <Group gap="lg">
          {SETTINGS_LINKS.map(([to, text, testId]) => (
            <Anchor key={testId} component={Link} to={to} data-testid={`settings-${testId}`}>
              {t(text)}
            </Anchor>
          ))}
          <Anchor href="#set-password" data-testid="settings-set-password-link">
            {t('title.setPassword')}
          </Anchor>
        </Group>
      </Card>
      <SiteCard />
      <PortalChannelsCard />
      <InvoiceSettingsCard />
      <MailPreviewCard />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <LocalizationCard />
        <MailingListsCard />
      </SimpleGrid>
      <SetPasswordCard />
    </Stack>
  );
}

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
    <TitledCard title={t('settings.ui.texts.title')} hint={t('settings.ui.texts.hint', { columns: LOCALIZATION_COLUMNS.join(', ') })} testId="settings-localization">
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
    </TitledCard>
  );
}

function MailingListsCard() {
  const { t } = useTranslation();
  const [busy, run] = useDownload();
  return (
    <TitledCard title={t('settings.ui.mailing.title')} hint={t('settings.ui.mailing.hint')} testId="settings-mailing">
      <Group>
        <Button variant="default" leftSection={<IconFile size={16} />} loading={busy === 'ru'} onClick={() => void run('ru', () => exportEmails(false))} data-testid="settings-emails-russian">
          {t('settings.ui.mailing.russian')}
        </Button>
        <Button variant="default" leftSection={<IconFile size={16} />} loading={busy === 'other'} onClick={() => void run('other', () => exportEmails(true))} data-testid="settings-emails-other">
          {t('settings.ui.mailing.other')}
        </Button>
      </Group>
    </TitledCard>
  );
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
    <TitledCard
      title={t('title.setPassword')}
      hint={t('settings.ui.password.hint')}
      testId="settings-password"
      id="set-password"
      maw={560}
      onSubmit={form.onSubmit((v) => send.mutate({ email: v.email.trim(), password: v.password }))}
    >
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
    </TitledCard>
  );
}
