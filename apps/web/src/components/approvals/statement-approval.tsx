import { Button } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../lib/use-translation.tsx';
import type { TStatementItem } from '@crm/contract';
import { ApiError } from '../../lib/api.ts';
import { showBanner } from '../../lib/banner.ts';
import { reportError } from '../../lib/errors.ts';
import { useGuardedMutation } from '../../lib/use-guarded-mutation.ts';
import { approveOnStatement, revertOnStatement } from './approval-api.ts';

/**
 * On the client's own statement (document 001, 2.11, "Expense for approval"): Approve on an expense
 * the agency sent for approval, and Revert approval while that is allowed (not paid, and within 48
 * hours of the approval), with the texts of the mailed link's page. Refused because the expense
 * moved on meanwhile (changed, sent again, paid), the statement is read again, so the row shows only
 * what can still be done.
 */
export function StatementApprovalButton({ item }: { item: TStatementItem }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const settle = {
    onError: (e: Error) => {
      reportError(e);
      if (e instanceof ApiError && e.status === 409) void qc.invalidateQueries({ queryKey: ['payments'] });
    },
    meta: { handlesErrors: true },
  };
  const approve = useGuardedMutation({
    mutationFn: () => approveOnStatement(item.id, item.approvalRequestedOn!),
    onSuccess: () => {
      showBanner('success', t('paymentsClient.statement.approved'));
      void qc.invalidateQueries({ queryKey: ['payments'] });
    },
    ...settle,
  });
  const revert = useGuardedMutation({
    mutationFn: () => revertOnStatement(item.id),
    onSuccess: () => {
      showBanner('success', t('paymentsClient.approval.reverted'));
      void qc.invalidateQueries({ queryKey: ['payments'] });
    },
    ...settle,
  });
  if (!item.isDebit) return null;
  if (item.confirmedByClientDate)
    return item.canRevertApproval ? (
      <Button
        variant="subtle"
        color="red"
        size="compact-sm"
        onClick={() => revert.mutate()}
        loading={revert.isPending}
        aria-label={t('paymentsClient.statement.revertRow', { ref: item.referenceNumber })}
        data-testid="statement-revert-approval"
      >
        {t('paymentsClient.approval.revert')}
      </Button>
    ) : null;
  if (!item.approvalRequestedOn) return null;
  return (
    <Button
      size="compact-sm"
      onClick={() => approve.mutate()}
      loading={approve.isPending}
      aria-label={t('paymentsClient.statement.approveRow', { ref: item.referenceNumber })}
      data-testid="statement-approve"
    >
      {t('paymentsClient.approval.approve')}
    </Button>
  );
}
