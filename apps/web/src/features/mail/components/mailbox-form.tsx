import { Alert, Button, Checkbox, Fieldset, Group, NumberInput, PasswordInput, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TMailbox, TMailboxSaveInput, TMailboxTestAnswer } from '@crm/contract';
import { MAIL_SIGNATURE_MAX, MAIL_SYNC_MONTHS_DEFAULT, MAIL_SYNC_MONTHS_MAX } from '@crm/contract/constants';
import { MAILBOX } from '@crm/contract/resources';
import { ApiError, call } from '../../../lib/api.ts';
import { describeError } from '../../../lib/errors.ts';
import { useGuardedMutation } from '../../../lib/use-guarded-mutation.ts';
import { FailureAlert } from '../../../components/failure-alert.tsx';

type Form = {
  name: string;
  address: string;
  ownerId: string;
  imapHost: string;
  imapPort: number | string;
  imapTls: boolean;
  imapUser: string;
  imapPassword: string;
  imapFolder: string;
  smtpHost: string;
  smtpPort: number | string;
  smtpTls: boolean;
  smtpUser: string;
  smtpPassword: string;
  syncMonths: number | string;
  active: boolean;
  signature: string;
};

const SHARED = '';

function initialOf(m: TMailbox | null): Form {
  return {
    name: m?.name ?? '',
    address: m?.address ?? '',
    ownerId: m?.ownerId != null ? String(m.ownerId) : SHARED,
    imapHost: m?.imapHost ?? '',
    imapPort: m?.imapPort ?? 993,
    imapTls: m?.imapTls ?? true,
    imapUser: m?.imapUser ?? '',
    imapPassword: '',
    imapFolder: m?.imapFolder ?? 'INBOX',
    smtpHost: m?.smtpHost ?? '',
    smtpPort: m?.smtpPort ?? 465,
    smtpTls: m?.smtpTls ?? true,
    smtpUser: m?.smtpUser ?? '',
    smtpPassword: '',
    syncMonths: m?.syncMonths ?? MAIL_SYNC_MONTHS_DEFAULT,
    active: m?.active ?? true,
    signature: m?.signature ?? '',
  };
}

function bodyOf(f: Form, m: TMailbox | null): TMailboxSaveInput {
  const smtp = f.smtpHost.trim();
  return {
    ...(m ? { id: m.id, version: m.version } : {}),
    name: f.name,
    address: f.address,
    ownerId: f.ownerId === SHARED ? null : Number(f.ownerId),
    imapHost: f.imapHost.trim(),
    imapPort: Number(f.imapPort),
    imapTls: f.imapTls,
    imapUser: f.imapUser,
    imapPassword: f.imapPassword,
    imapFolder: f.imapFolder,
    smtpHost: smtp || null,
    smtpPort: smtp ? Number(f.smtpPort) : null,
    smtpTls: f.smtpTls,
    smtpUser: smtp ? f.smtpUser || null : null,
    smtpPassword: f.smtpPassword,
    syncMonths: Number(f.syncMonths),
    active: f.active,
    signature: f.signature,
  };
}

function TestResult({ answer }: { answer: TMailboxTestAnswer }) {
  const { t } = useTranslation();
  if (answer.ok) {
    return (
      <Alert color="green" data-testid="mailbox-test-ok">
        {t('mailbox.testOk')}
      </Alert>
    );
  }
  const sides = [
    ['imap', t('mailbox.testImap'), answer.imap],
    ['smtp', t('mailbox.testSmtp'), answer.smtp],
  ] as const;
  return (
    <Alert color="red" data-testid="mailbox-test-failed">
      <Stack gap={4}>
        {sides.map(([key, label, r]) =>
          r && !r.ok ? (
            <div key={key} data-testid={`mailbox-test-${key}`} data-step={r.step ?? ''}>
              <Text size="sm" fw={600}>
                {label}: {r.message}
              </Text>
              {r.detail && (
                <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {r.detail}
                </Text>
              )}
            </div>
          ) : null,
        )}
      </Stack>
    </Alert>
  );
}

/** A mailbox's settings (office administrators): the IMAP and SMTP sides, a connection test, save. Passwords are never shown, only typed. */
export function MailboxForm({ mailbox, owners, onSaved, onCancel }: { mailbox: TMailbox | null; owners: { id: number; name: string }[]; onSaved: (m: TMailbox) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [f, setF] = useState<Form>(() => initialOf(mailbox));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [tested, setTested] = useState<TMailboxTestAnswer | null>(null);
  const set = <K extends keyof Form>(k: K, v: Form[K]) => setF((p) => ({ ...p, [k]: v }));
  const text = (k: keyof Form) => ({ value: f[k] as string, onChange: (e: React.ChangeEvent<HTMLInputElement>) => set(k, e.currentTarget.value as never), error: errors[k], 'data-testid': `mailbox-${k}` });
  const onError = (e: unknown) => {
    if (e instanceof ApiError && e.status === 400 && Object.keys(e.fieldErrors).length) setErrors(e.fieldErrors);
    setFailure(describeError(e).message);
  };
  const test = useGuardedMutation({
    mutationFn: () => call(MAILBOX.calls.test, { body: bodyOf(f, mailbox) }),
    onMutate: () => {
      setTested(null);
      setFailure(null);
      setErrors({});
    },
    onSuccess: setTested,
    onError,
  });
  const save = useGuardedMutation({
    mutationFn: () => call(MAILBOX.calls.save, { body: bodyOf(f, mailbox) }),
    onMutate: () => {
      setFailure(null);
      setErrors({});
    },
    onSuccess: onSaved,
    onError,
  });
  const kept = (set: boolean | undefined) => (set ? t('mailbox.field.passwordKept') : undefined);
  return (
    <Stack gap="sm" data-testid="mailbox-form">
      <FailureAlert failure={failure} testId="mailbox-form-error" />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput label={t('mailbox.field.name')} required {...text('name')} />
        <TextInput label={t('mailbox.field.address')} type="email" required {...text('address')} />
        <Select
          label={t('mailbox.field.owner')}
          data={[{ value: SHARED, label: t('mailbox.field.shared') }, ...owners.map((o) => ({ value: String(o.id), label: o.name }))]}
          value={f.ownerId}
          onChange={(v) => set('ownerId', v ?? SHARED)}
          allowDeselect={false}
          searchable
          error={errors.ownerId}
          data-testid="mailbox-ownerId"
        />
        <NumberInput label={t('mailbox.field.syncMonths')} min={1} max={MAIL_SYNC_MONTHS_MAX} value={f.syncMonths} onChange={(v) => set('syncMonths', v)} error={errors.syncMonths} data-testid="mailbox-syncMonths" />
      </SimpleGrid>
      <Fieldset legend={t('mailbox.field.imap')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label={t('mailbox.field.host')} required {...text('imapHost')} />
          <NumberInput label={t('mailbox.field.port')} required min={1} max={65535} value={f.imapPort} onChange={(v) => set('imapPort', v)} error={errors.imapPort} data-testid="mailbox-imapPort" />
          <TextInput label={t('mailbox.field.user')} required autoComplete="off" {...text('imapUser')} />
          <PasswordInput label={t('mailbox.field.password')} required={!mailbox} placeholder={kept(mailbox?.imapPasswordSet)} autoComplete="new-password" {...text('imapPassword')} />
          <TextInput label={t('mailbox.field.folder')} required {...text('imapFolder')} />
          <Checkbox mt={{ sm: 'xl' }} label={t('mailbox.field.tls')} checked={f.imapTls} onChange={(e) => set('imapTls', e.currentTarget.checked)} data-testid="mailbox-imapTls" />
        </SimpleGrid>
      </Fieldset>
      <Fieldset legend={t('mailbox.field.smtp')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label={t('mailbox.field.host')} {...text('smtpHost')} />
          <NumberInput label={t('mailbox.field.port')} min={1} max={65535} value={f.smtpPort} onChange={(v) => set('smtpPort', v)} error={errors.smtpPort} data-testid="mailbox-smtpPort" />
          <TextInput label={t('mailbox.field.user')} autoComplete="off" {...text('smtpUser')} />
          <PasswordInput label={t('mailbox.field.password')} placeholder={kept(mailbox?.smtpPasswordSet)} autoComplete="new-password" {...text('smtpPassword')} />
          <Checkbox label={t('mailbox.field.tls')} checked={f.smtpTls} onChange={(e) => set('smtpTls', e.currentTarget.checked)} data-testid="mailbox-smtpTls" />
        </SimpleGrid>
      </Fieldset>
      <Textarea
        label={t('mailbox.field.signature')}
        description={t('mailbox.field.signatureHelp')}
        autosize
        minRows={2}
        maxRows={8}
        maxLength={MAIL_SIGNATURE_MAX}
        value={f.signature}
        onChange={(e) => set('signature', e.currentTarget.value)}
        error={errors.signature}
        data-testid="mailbox-signature"
      />
      <Checkbox label={t('mailbox.field.active')} checked={f.active} onChange={(e) => set('active', e.currentTarget.checked)} data-testid="mailbox-active" />
      {tested && <TestResult answer={tested} />}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel} data-testid="mailbox-cancel">
          {t('common.cancel')}
        </Button>
        <Button variant="light" loading={test.isPending} onClick={() => test.mutate()} data-testid="mailbox-test">
          {t('mailbox.test')}
        </Button>
        <Button loading={save.isPending} onClick={() => save.mutate()} data-testid="mailbox-save">
          {t('common.save')}
        </Button>
      </Group>
    </Stack>
  );
}
