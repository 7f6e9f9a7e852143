import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { SIGN_IN_EMAIL } from '@crm/contract/site-settings';
import { useGuardedMutation } from '../../../lib/use-guarded-mutation.ts';
import { useEffect } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import { forgotPassword } from '../api/login.ts';
import { PublicFrame } from '../../../components/public-frame.tsx';
import { variantStore } from '../../../lib/variant.ts';
import { FailureAlert } from '../../../components/failure-alert.tsx';

export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const form = useForm({
    initialValues: { email: '' },
    validate: { email: (v) => (!v.trim() ? t('login.emailRequired') : SIGN_IN_EMAIL.test(v.trim()) ? null : t('validation.email')) },
  });
  const send = useGuardedMutation({ mutationFn: forgotPassword, meta: { handlesErrors: true } });
  useEffect(() => {
    document.title = `${t('title.forgotPassword')} · ${t(variantStore.get() === 'payments' ? 'app.paymentsBrand' : 'app.brand')}`;
  }, [t]);
  return (
    <PublicFrame>
      <form onSubmit={form.onSubmit((v) => send.mutate(v.email.trim()))} noValidate>
        <Stack>
          <Title order={1} size="h3">{t('forgot.title')}</Title>
          {send.isSuccess ? (
            <Alert color="green" data-testid="forgot-sent">
              {t('forgot.sent')}
            </Alert>
          ) : (
            <>
              <Text size="sm" c="dimmed">
                {t('forgot.text')}
              </Text>
              <FailureAlert failure={send.error} />
              <TextInput label={t('forgot.email')} type="email" required autoFocus data-testid="forgot-email" {...form.getInputProps('email')} />
              <Button type="submit" loading={send.isPending} data-testid="forgot-submit">
                {t('forgot.submit')}
              </Button>
            </>
          )}
          <Anchor component={Link} to="/login" size="sm" ta="center">
            {t('forgot.backToLogin')}
          </Anchor>
        </Stack>
      </form>
    </PublicFrame>
  );
}
