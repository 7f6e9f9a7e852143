import { Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from '../../lib/use-translation.tsx';
import { NewPasswordFields, PasswordField, newPasswordRules } from '../../components/password-field.tsx';
import { SESSION } from '@crm/contract/resources';
import { call, ApiError } from '../../lib/api.ts';
import { showBanner } from '../../lib/banner.ts';
import { useGuardedMutation } from '../../lib/use-guarded-mutation.ts';
import { FormButtons } from '../../components/form-buttons.tsx';
import { FailureAlert } from '../../components/failure-alert.tsx';

type Values = { currentPassword: string; password: string; confirmPassword: string };

const changePassword = (body: Values) => call(SESSION.calls.changePassword, { body });

/**
 * The signed-in user's own new password (from the user menu): the current one, the new one and its
 * confirmation. Done, it says so in the page banner and closes; a refusal keeps everything typed and
 * shows the server's reason at its field (a wrong current password, a new one too weak) or above.
 */
export function ChangePasswordDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const form = useForm<Values>({
    initialValues: { currentPassword: '', password: '', confirmPassword: '' },
    validate: {
      currentPassword: (v) => (!v ? t('password.change.currentRequired') : null),
      ...newPasswordRules(t),
    },
  });
  const send = useGuardedMutation({
    mutationFn: changePassword,
    meta: { handlesErrors: true },
    onSuccess: (res) => {
      showBanner('success', res.message);
      form.reset();
      onClose();
    },
    onError: (e) => {
      if (e instanceof ApiError) form.setErrors(e.fieldErrors);
    },
  });
  const close = () => {
    form.reset();
    send.reset();
    onClose();
  };
  const fieldErrorsOnly = send.error instanceof ApiError && Object.keys(send.error.fieldErrors).length > 0;
  const typed = form.isDirty();

  return (
    <Modal
      opened={opened}
      onClose={close}
      closeOnEscape={!typed}
      closeOnClickOutside={!typed}
      title={t('password.change.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={form.onSubmit((v) => send.mutate(v))} noValidate data-testid="change-password-form">
        <Stack gap="sm">
          {!fieldErrorsOnly && <FailureAlert failure={send.error} testId="change-password-error" />}
          <PasswordField
            label={t('password.change.current')}
            required
            autoComplete="current-password"
            data-autofocus
            data-testid="change-password-current"
            {...form.getInputProps('currentPassword')}
          />
          <NewPasswordFields form={form} testIds={['change-password-new', 'change-password-confirm']} />
          <FormButtons onCancel={close} label={t('password.change.submit')} loading={send.isPending} testId="change-password-submit" />
        </Stack>
      </form>
    </Modal>
  );
}
