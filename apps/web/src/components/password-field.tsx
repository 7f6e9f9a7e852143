import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { TFunction } from 'i18next';
import { useTranslation } from '../lib/use-translation.tsx';
import { PASSWORD_MIN_LENGTH } from '@crm/contract/constants';

/** Mantine's password input with its show/hide button named in the reader's language. */
export function PasswordField(props: PasswordInputProps) {
  const { t } = useTranslation();
  return <PasswordInput visibilityToggleButtonProps={{ 'aria-label': t('common.showPassword') }} {...props} />;
}

type NewPassword = { password: string; confirmPassword: string };

/**
 * The rules of a new password and its confirmation, the same in every form that sets one (reset,
 * invitation, Change password, Set password, the settings page): required, at least
 * PASSWORD_MIN_LENGTH characters, typed twice alike. The server checks them again.
 */
export function newPasswordRules(t: TFunction) {
  return {
    password: (v: string) => (!v ? t('reset.passwordRequired') : v.length < PASSWORD_MIN_LENGTH ? t('validation.passwordTooShort', { min: PASSWORD_MIN_LENGTH }) : null),
    confirmPassword: (v: string, values: NewPassword) => (v !== values.password ? t('reset.passwordsShouldMatch') : null),
  };
}

/** The new password and its confirmation, as a pair of fields of `form` (test ids given). */
export function NewPasswordFields<T extends NewPassword>({ form, testIds }: { form: UseFormReturnType<T>; testIds: [string, string] }) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordField label={t('reset.password')} required autoComplete="new-password" data-testid={testIds[0]} {...form.getInputProps('password')} />
      <PasswordField label={t('reset.confirmPassword')} required autoComplete="new-password" data-testid={testIds[1]} {...form.getInputProps('confirmPassword')} />
    </>
  );
}
