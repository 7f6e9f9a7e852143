import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TAccount } from '@crm/contract';
import { ApiError } from '../../../lib/api.ts';
import { showBanner } from '../../../lib/banner.ts';
import { accountKeys, erasePersonalData } from '../api/account.ts';
import { FailureAlert } from '../../../components/failure-alert.tsx';

/** The name as typed to confirm: spaces and letter case do not count. */
export const sameName = (typed: string, name: string) => {
  const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLocaleLowerCase();
  return norm(typed) !== '' && norm(typed) === norm(name);
};

/**
 * "Erase personal data" (GDPR Art. 17): says what will happen, and asks for the person's name typed
 * out before the red button does anything. The server's refusal (an employee, a listed owner...) is
 * said inside the dialog, which stays open.
 */
export function EraseDialog({ account, opened, onClose }: { account: TAccount; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [typed, setTyped] = useState('');
  const name = account.displayName || `#${account.id}`;
  const erase = useMutation({
    mutationFn: () => erasePersonalData(account.id, account.version),
    meta: { handlesErrors: true },
    onSuccess: (erased) => {
      qc.setQueryData(accountKeys.view(account.id), erased);
      qc.removeQueries({ queryKey: accountKeys.edit(account.id) });
      void qc.invalidateQueries({ queryKey: ['accounts'] });
      showBanner('success', t('accounts.ui.privacy.done'));
      setTyped('');
      onClose();
    },
    // Someone changed the account meanwhile: the page reads it again, and the error says so.
    onError: (e) => {
      if (e instanceof ApiError && e.status === 409) void qc.invalidateQueries({ queryKey: accountKeys.view(account.id) });
    },
  });
  const close = () => {
    setTyped('');
    erase.reset();
    onClose();
  };
  const ok = sameName(typed, name);
  return (
    <Modal opened={opened} onClose={close} title={t('accounts.ui.privacy.erase')} closeButtonProps={{ 'aria-label': t('common.close') }} data-testid="erase-dialog">
      <Stack gap="sm">
        <Text size="sm">{t('accounts.ui.privacy.eraseText', { number: `#${account.id}` })}</Text>
        <Text size="sm" c="dimmed">
          {t('accounts.ui.privacy.eraseHint')}
        </Text>
        <TextInput
          label={t('accounts.ui.privacy.typeName', { name })}
          value={typed}
          onChange={(e) => setTyped(e.currentTarget.value)}
          autoComplete="off"
          data-autofocus
          data-testid="erase-name"
        />
        <FailureAlert failure={erase.error} testId="erase-error" />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button color="red" disabled={!ok} loading={erase.isPending} onClick={() => erase.mutate()} data-testid="erase-confirm">
            {t('accounts.ui.privacy.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
