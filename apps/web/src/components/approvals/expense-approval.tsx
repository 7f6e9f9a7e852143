import { Button, Group, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useGuardedMutation } from '../../lib/use-guarded-mutation.ts';
import { useTranslation } from '../../lib/use-translation.tsx';
import { showBanner } from '../../lib/banner.ts';
import { reportError } from '../../lib/errors.ts';
import { formatDateTime } from '../../lib/format.ts';
import { sendExpenseForApproval } from './approval-api.ts';

/**
 * On an expense (form or statement row), for admins: where its approval stands, and Send for
 * approval (again) while the client has not approved it.
 */
export function ExpenseApprovalControl({
  transactionId,
  approvalRequestedOn,
  confirmedByClientDate,
  onSent,
}: {
  transactionId: number;
  approvalRequestedOn: string | null;
  confirmedByClientDate: string | null;
  onSent?: () => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const send = useGuardedMutation({
    mutationFn: () => sendExpenseForApproval(transactionId),
    onSuccess: (r) => {
      showBanner('success', r.message);
      void qc.invalidateQueries({ queryKey: ['payments'] });
      onSent?.();
    },
    onError: reportError,
    meta: { handlesErrors: true },
  });
  if (confirmedByClientDate)
    return (
      <Text size="sm" c="green.8" data-testid="expense-approved-on">
        {t('paymentsClient.admin.approvedOn', { date: formatDateTime(confirmedByClientDate) })}
      </Text>
    );
  return (
    <Group gap="sm" data-testid="expense-approval">
      {approvalRequestedOn && (
        <Text size="sm" c="dimmed" data-testid="expense-approval-requested">
          {t('paymentsClient.admin.awaitingApproval', { date: formatDateTime(approvalRequestedOn) })}
        </Text>
      )}
      <Button variant="light" size="xs" onClick={() => send.mutate()} loading={send.isPending} data-testid="expense-send-for-approval">
        {t(approvalRequestedOn ? 'paymentsClient.admin.sendForApprovalAgain' : 'paymentsClient.admin.sendForApproval')}
      </Button>
    </Group>
  );
}
