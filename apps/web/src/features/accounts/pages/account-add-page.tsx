import { Alert, Anchor, Checkbox, Chip, Group, Paper, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useGuardedMutation } from '../../../lib/use-guarded-mutation.ts';
import { useChangeKeys } from '../../../lib/change-key.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link, useNavigate } from 'react-router';
import { SEARCH_DEBOUNCE_MS, plainText } from '@crm/contract/constants';
import type { TAccountAdd } from '@crm/contract';
import { ACCOUNT, LEAD, href } from '@crm/contract/resources';
import { useRouteHandle } from '../../../lib/use-route-title.ts';
import { ApiError, call } from '../../../lib/api.ts';
import { SharedContact } from '../components/shared-contact.tsx';
import { hasBranch, isOfficeAdmin, useSession } from '../../../lib/session.ts';
import { KIND_FLAGS, type TKindFlag } from '../account-fields.ts';
import { GenderField } from '../components/gender-field.tsx';
import { addAccount } from '../api/account.ts';
import { useGoBack } from '../../../components/go-back.ts';
import { useFormLeaveGuard } from '../../../lib/unsaved-guard.tsx';
import { FormButtons } from '../../../components/form-buttons.tsx';
import { FailureAlert } from '../../../components/failure-alert.tsx';

type TAddForm = { lastName: string; firstName: string; middleName: string; gender: TAccountAdd['gender']; phone: string; email: string; wants: string; kinds: TKindFlag[]; hasTransactions: boolean };

/**
 * /Accounts/Add and /Accounts/Add{Owner,Client,...}: what an agent has on the phone first (the names,
 * a phone, an e-mail, and for a client what they are looking for, which becomes their lead); the
 * rest is filled in on the account's page, one click away.
 */
export function AccountAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const goBack = useGoBack();
  const preset = useRouteHandle()?.preset;
  const session = useSession();
  // Employee accounts are the office admins'; branch users do not deal with payments (their menu hides them).
  const kindFlags = KIND_FLAGS.filter((k) => k !== 'isEmploye' || isOfficeAdmin(session));
  const branchUser = hasBranch(session);
  const form = useForm<TAddForm>({
    initialValues: {
      lastName: '',
      firstName: '',
      middleName: '',
      gender: null,
      phone: '',
      email: '',
      wants: '',
      kinds: preset && preset !== 'hasTransactions' ? [preset] : [],
      hasTransactions: preset === 'hasTransactions',
    },
    validate: {
      lastName: (v) => (v.trim() ? null : t('accounts.ui.add.lastNameRequired')),
      firstName: (v) => (v.trim() ? null : t('accounts.ui.add.firstNameRequired')),
    },
  });
  // Names typed and not added: leaving (a menu link, Back, a reload) asks first, as every form does.
  const leaveGuard = useFormLeaveGuard(['lastName', 'firstName', 'middleName', 'phone', 'email', 'wants'].some((k) => (form.values[k as keyof TAddForm] as string).trim()));
  const isClient = form.values.kinds.includes('isClient');
  // The same names sent again from this screen are the same account: a second click that comes after
  // the first answer (the page not yet gone), or Save pressed again after a lost answer, gets the
  // first account back instead of making a namesake.
  const keys = useChangeKeys();
  const add = useGuardedMutation({
    mutationFn: async (v: TAddForm) => {
      const body: TAccountAdd = {
        lastName: v.lastName.trim(),
        firstName: v.firstName.trim(),
        middleName: v.middleName.trim() || null,
        ...(v.gender ? { gender: v.gender } : {}),
        ...(v.phone.trim() ? { phone: v.phone.trim() } : {}),
        ...(v.email.trim() ? { email: v.email.trim() } : {}),
        hasTransactions: v.hasTransactions,
        ...Object.fromEntries(KIND_FLAGS.map((k) => [k, v.kinds.includes(k)])),
      };
      const id = await addAccount(body, keys.keyFor(body));
      // What a client is looking for is their lead: made with its words, its criteria filled in on it later.
      const wants = v.wants.trim();
      if (wants && v.kinds.includes('isClient')) {
        const lead = await call(LEAD.calls.add, { body: { accountId: id } }, { changeKey: keys.keyFor({ ...body, wants }) });
        const made = await call(LEAD.calls.get, { params: { id: lead.id } });
        await call(LEAD.calls.update, { body: { id: lead.id, version: made.version, description: wants } });
      }
      return id;
    },
    meta: { handlesErrors: true },
    onSuccess: (id) => {
      void client.invalidateQueries({ queryKey: ['accounts'] });
      leaveGuard.release();
      navigate(href(ACCOUNT.screens.view, { id, viewMode: 2 }));
    },
    onError: (e) => {
      if (e instanceof ApiError) form.setErrors(e.fieldErrors);
    },
  });
  // Someone with this last and first name is already in the CRM: said before a duplicate is made
  // (the links open in a new tab, so what was typed here stays).
  const [names] = useDebouncedValue({ last: form.values.lastName.trim(), first: form.values.firstName.trim() }, SEARCH_DEBOUNCE_MS);
  const namesReady = names.last.length >= 2 && names.first.length >= 2;
  const same = useQuery({
    queryKey: ['accounts', 'sameName', names.last, names.first],
    queryFn: ({ signal }) => call(ACCOUNT.calls.search, { query: { searchStr: `${names.last} ${names.first}` } }, { signal, background: true }),
    enabled: namesReady,
    staleTime: 30_000,
  });
  const namesakes = namesReady ? (same.data?.items ?? []).filter((i) => plainText(i.description).includes(plainText(names.last)) && plainText(i.description).includes(plainText(names.first))).slice(0, 5) : [];
  const fieldErrorsOnly = add.error instanceof ApiError && Object.keys(add.error.fieldErrors).length > 0;

  return (
    <Paper withBorder p="lg" maw={720} mx="auto">
      <form onSubmit={form.onSubmit((v) => add.mutate(v))} noValidate>
        <Stack>
          <Title order={2} size="h3">{t(preset ? `accounts.ui.add.title.${preset}` : 'accounts.ui.add.title.any')}</Title>
          {!fieldErrorsOnly && <FailureAlert failure={add.error} testId="add-error" />}
          <TextInput label={t('accounts.ui.field.lastName')} required autoFocus data-testid="add-lastName" {...form.getInputProps('lastName')} />
          <TextInput label={t('accounts.ui.field.firstName')} required data-testid="add-firstName" {...form.getInputProps('firstName')} />
          {namesakes.length > 0 && (
            <Alert color="yellow" data-testid="add-same-name">
              <Text size="sm" fw={700}>
                {t('accounts.ui.add.sameName')}
              </Text>
              <Text size="sm">{t('accounts.ui.add.sameNameHint')}</Text>
              <Stack gap={2} mt={6}>
                {namesakes.map((a) => (
                  <Anchor key={a.id} component={Link} to={href(ACCOUNT.screens.view, { id: a.id })} target="_blank" rel="noopener" size="sm" data-testid="add-same-name-link">
                    {a.description}
                  </Anchor>
                ))}
              </Stack>
            </Alert>
          )}
          <TextInput label={t('accounts.ui.field.middleName')} data-testid="add-middleName" {...form.getInputProps('middleName')} />
          <GenderField value={form.values.gender ?? null} onChange={(v) => form.setFieldValue('gender', v)} />
          <TextInput label={t('accounts.ui.add.phone')} type="tel" autoComplete="off" data-testid="add-phone" {...form.getInputProps('phone')} />
          <SharedContact kind="phone" value={form.values.phone} selfId={0} testId="add-phone-shared" />
          <TextInput label={t('accounts.ui.add.email')} type="email" autoComplete="off" data-testid="add-email" {...form.getInputProps('email')} />
          <SharedContact kind="email" value={form.values.email} selfId={0} testId="add-email-shared" />
          <Chip.Group multiple value={form.values.kinds} onChange={(v) => form.setFieldValue('kinds', v as TKindFlag[])}>
            <Group gap={6}>
              {kindFlags.map((k) => (
                <Chip key={k} value={k} size="sm" data-testid={`add-kind-${k}`}>
                  {t(`accounts.ui.kind.${k}`)}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
          {isClient && (
            <Textarea
              label={t('accounts.ui.add.wants')}
              description={t('accounts.ui.add.wantsHint')}
              autosize
              minRows={2}
              maxLength={2000}
              data-testid="add-wants"
              {...form.getInputProps('wants')}
            />
          )}
          {!branchUser && (
            <Checkbox label={t('accounts.ui.field.hasTransactions')} {...form.getInputProps('hasTransactions', { type: 'checkbox' })} />
          )}
          <FormButtons onCancel={goBack} label={t('accounts.ui.add.submit')} loading={add.isPending} testId="add-submit" />
        </Stack>
      </form>
    </Paper>
  );
}
