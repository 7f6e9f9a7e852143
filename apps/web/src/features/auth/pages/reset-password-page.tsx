import { Alert, Anchor, Button, Checkbox, Stack, TextInput, Title } from '@mantine/core';
import { NewPasswordFields, newPasswordRules } from '../../../components/password-field.tsx';
import { useForm } from '@mantine/form';
import { useGuardedMutation } from '../../../lib/use-guarded-mutation.ts';
import { useEffect } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { describeError } from '../../../lib/errors.ts';
import { resetPassword } from '../api/login.ts';
import { PublicFrame } from '../../../components/public-frame.tsx';
import { variantStore } from '../../../lib/variant.ts';

export function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  const email = params.get('email') ?? '';
  // A link from an invitation: the person chooses a first password, not a new one.
  const invite = params.get('invite') === '1';
  const form = useForm({
    initialValues: { password: '', confirmPassword: '', terms: false },
    validate: {
      ...newPasswordRules(t),
    },
  });
  const send = useGuardedMutation({
    mutationFn: resetPassword,
    meta: { handlesErrors: true },
    onError: (e) => {
      if (e instanceof ApiError) form.setErrors(e.fieldErrors);
    },
  });
  useEffect(() => {
    document.title = `${t('title.resetPassword')} · ${t(variantStore.get() === 'payments' ? 'app.paymentsBrand' : 'app.brand')}`;
  }, [t]);
  const fieldErrorsOnly = send.error instanceof ApiError && Object.keys(send.error.fieldErrors).length > 0;

  return (
    <PublicFrame>
      <form
        onSubmit={form.onSubmit((v) => send.mutate({ email, code, password: v.password, confirmPassword: v.confirmPassword }))}
        noValidate
      >
        <Stack>
          <Title order={1} size="h3">{t(invite ? 'reset.titleInvite' : 'reset.title')}</Title>
          {send.isSuccess ? (
            <Alert color="green" data-testid="reset-success">
              {t(invite ? 'reset.successInvite' : 'reset.success')}
            </Alert>
          ) : !code || !email ? (
            <Alert color="red">{t('reset.missingCode')}</Alert>
          ) : (
            <>
              {send.isError && !fieldErrorsOnly && (
                <Alert color="red" data-testid="reset-error">
                  {invite && send.error instanceof ApiError && send.error.problem.code === 'errors.resetCodeInvalid' ? t('reset.inviteInvalid') : describeError(send.error).message}
                </Alert>
              )}
              <TextInput label={t('reset.email')} value={email} readOnly variant="filled" />
              <NewPasswordFields form={form} testIds={['reset-password', 'reset-confirm']} />
              <Checkbox
                label={t('reset.acceptTerms')}
                description={
                  <Anchor href="/terms.htm" target="_blank" rel="noopener" size="sm">
                    {t('reset.readTerms')}
                  </Anchor>
                }
                data-testid="reset-terms"
                {...form.getInputProps('terms', { type: 'checkbox' })}
              />
              <Button type="submit" disabled={!form.values.terms} loading={send.isPending} data-testid="reset-submit">
                {t('reset.submit')}
              </Button>
            </>
          )}
          <Anchor component={Link} to="/login" size="sm" ta="center">
            {t('reset.backToLogin')}
          </Anchor>
        </Stack>
      </form>
    </PublicFrame>
  );
}
