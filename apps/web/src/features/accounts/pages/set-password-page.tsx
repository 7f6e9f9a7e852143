import { Alert, Loader, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { NewPasswordFields, newPasswordRules } from '../../../components/password-field.tsx';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useGuardedMutation } from '../../../lib/use-guarded-mutation.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useParams } from 'react-router';
import { describeSetPasswordError } from '../../../lib/errors.ts';
import { splitList } from '../account-fields.ts';
import { accountViewQuery } from '../api/account.ts';
import { setPassword, setPasswordPreviewQuery } from '../api/employe.ts';
import { useGoBack } from '../../../components/go-back.ts';
import { PageLoading } from '../../../components/page-loading.tsx';
import { FormButtons } from '../../../components/form-buttons.tsx';

/** /SetPassword/{id}: sets the sign-in password of one of the account's e-mails (administrators). */
export function SetPasswordPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const goBack = useGoBack();
  const qc = useQueryClient();
  const q = useQuery({ ...accountViewQuery(id), enabled: Number.isInteger(id) && id > 0 });
  const emails = q.data ? [...new Set([...(q.data.signIn ? [q.data.signIn] : []), ...splitList(q.data.email)])] : [];
  const form = useForm({
    initialValues: { email: '', password: '', confirmPassword: '' },
    validate: {
      ...newPasswordRules(t),
    },
  });
  const send = useGuardedMutation({
    mutationFn: (v: { email: string; password: string }) => setPassword(v.email, v.password),
    meta: { handlesErrors: true },
    onSuccess: (_, v) => {
      form.setValues({ password: '', confirmPassword: '' });
      // The note beside the e-mail (and the account's sign-in) now tells of the sign-in that exists.
      void qc.invalidateQueries({ queryKey: setPasswordPreviewQuery(v.email).queryKey });
      void qc.invalidateQueries({ queryKey: accountViewQuery(id).queryKey });
    },
  });

  if (q.isError) {
    return (
      <Alert color="red" data-testid="password-error">
        {describeSetPasswordError(q.error, t('login.oops'))}
      </Alert>
    );
  }
  if (!q.data) {
    return <PageLoading />;
  }
  const email = form.values.email || (emails.length === 1 ? emails[0]! : '');
  return (
    <Paper withBorder p="lg" maw={560} mx="auto">
      <form
        onSubmit={form.onSubmit((v) => {
          const chosen = v.email || email;
          if (!chosen) form.setFieldError('email', t('accounts.ui.password.emailRequired'));
          else send.mutate({ email: chosen, password: v.password });
        })}
        noValidate
      >
        <Stack>
          <Title order={2} size="h3">{t('title.setPassword')}</Title>
          <Text size="sm" c="dimmed" data-testid="password-account">
            {q.data.displayName}
          </Text>
          {send.isSuccess && (
            <Alert color="green" data-testid="password-success">
              {send.data.message}
            </Alert>
          )}
          {send.isError && (
            <Alert color="red" data-testid="password-error" className="pre-line">
              {describeSetPasswordError(send.error, t('login.oops'))}
            </Alert>
          )}
          {emails.length === 0 ? (
            <Alert color="yellow" data-testid="password-no-email">
              {t('accounts.ui.password.noEmail')}
            </Alert>
          ) : (
            <>
              <Select
                label={t('accounts.ui.password.email')}
                data={emails}
                value={email || null}
                onChange={(v) => form.setFieldValue('email', v ?? '')}
                allowDeselect={false}
                required
                error={form.errors.email}
                data-testid="password-email"
              />
              {email && <SignInPreview email={email} />}
              <NewPasswordFields form={form} testIds={['password-new', 'password-confirm']} />
              <FormButtons onCancel={goBack} label={t('accounts.ui.password.submit')} loading={send.isPending} testId="password-submit" />
            </>
          )}
        </Stack>
      </form>
    </Paper>
  );
}

/** Says, before anything is saved, whose sign-in the password is for and with which role. */
function SignInPreview({ email }: { email: string }) {
  const { t } = useTranslation();
  const q = useQuery(setPasswordPreviewQuery(email));
  if (q.isError) {
    return (
      <Alert color="red" data-testid="password-preview-error">
        {describeSetPasswordError(q.error, t('login.oops'))}
      </Alert>
    );
  }
  if (!q.data) return <Loader size="sm" />;
  const p = q.data;
  const params = { name: p.name, role: p.roleNames.join(', '), branch: p.branch ?? t('branch.notSet') };
  return (
    <Alert color={p.roles.includes('admin') ? 'orange' : 'blue'} data-testid="password-preview">
      {p.hasSignIn ? t('accounts.ui.password.setsFor', params) : t('accounts.ui.password.createsFor', params)}
    </Alert>
  );
}
