import { Alert, Anchor, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useParams, useSearchParams } from 'react-router';
import type { TExpenseForApproval } from '@crm/contract';
import { ApiError } from '../../../lib/api.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatAmount, formatDate } from '../../../lib/format.ts';
import { variantStore } from '../../../lib/variant.ts';
import { changeLanguage, currentCulture, languageChosen } from '../../../lib/i18n.ts';
import { cultureOf } from '@crm/contract/constants';
import { PublicFrame } from '../../../components/public-frame.tsx';
import { approvalFileUrl, approveExpense, expenseForApprovalQuery, revertApproval } from '../../../components/approvals/approval-api.ts';

/**
 * /Payments/ApproveExpense/{id}?token=... (document 001, 2.11): the client reviews an expense from
 * the mailed link, without signing in, and approves it (or reverts the approval while allowed).
 */
export function ApproveExpensePage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const qc = useQueryClient();
  const culture = currentCulture();
  const query = useQuery({ ...expenseForApprovalQuery(id, token, culture), enabled: Number.isInteger(id) && id > 0 && !!token });
  const set = (e: TExpenseForApproval) => qc.setQueryData(expenseForApprovalQuery(id, token, culture).queryKey, e);
  // Refused because the expense moved on meanwhile (paid, or the time to revert ran out): it is read
  // again, so the page offers only what can still be done (no Revert left beside its refusal).
  const reread = (err: Error) => {
    if (err instanceof ApiError && err.status === 409) void qc.invalidateQueries({ queryKey: expenseForApprovalQuery(id, token, culture).queryKey });
  };
  const approve = useMutation({ mutationFn: () => approveExpense(id, token), onSuccess: set, onError: reread, meta: { handlesErrors: true } });
  const revert = useMutation({ mutationFn: () => revertApproval(id, token), onSuccess: set, onError: reread, meta: { handlesErrors: true } });

  useEffect(() => {
    document.title = `${t('paymentsClient.approval.title')} · ${t(variantStore.get() === 'crm' ? 'app.brand' : 'app.paymentsBrand')}`;
  }, [t]);

  // A visitor who has not chosen a language reads the page in the mail's (the account's): it switches
  // once the expense says which, and the expense is read again in it (every query is, on a switch).
  // Until then the page waits, so it does not show itself in one language and then in another.
  const mailLanguage = query.data?.language ?? null;
  // Its texts could not be loaded (offline): the page stays in the language it has.
  const [cannotSwitch, setCannotSwitch] = useState(false);
  const switchTo = mailLanguage && !cannotSwitch && !languageChosen() && cultureOf(mailLanguage) !== culture ? mailLanguage : null;
  useEffect(() => {
    if (switchTo) changeLanguage(switchTo, { chosen: false }).catch(() => setCannotSwitch(true));
  }, [switchTo]);
  const settling = query.isLoading || !!switchTo;

  const e = switchTo ? undefined : query.data;
  const failed = query.error ?? approve.error ?? revert.error;
  // The link stopped working while the page was open (the office changed the expense): what it
  // showed is no longer what would be approved, so it goes, with its buttons.
  const gone = [approve.error, revert.error].some((x) => x instanceof ApiError && x.status === 404);
  const busy = approve.isPending || revert.isPending;
  return (
    <PublicFrame>
      <Stack>
        {!settling && (
          <Title order={1} size="h3">
            {t('paymentsClient.approval.caption')}
          </Title>
        )}
        {!token || !(id > 0) ? (
          <Alert color="red" role="alert" data-testid="approval-error">
            {t('paymentsClient.approval.linkInvalid')}
          </Alert>
        ) : (
          failed && (
            <Alert color="red" role="alert" data-testid="approval-error">
              {describeError(failed).message}
            </Alert>
          )
        )}
        {settling && <Loader size="sm" role="progressbar" aria-label={t('common.loading')} />}
        {e && !gone && (
          <>
            <Table variant="vertical" withTableBorder data-testid="approval-expense">
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th w="40%">{t('paymentsClient.approval.amount')}</Table.Th>
                  <Table.Td fw={700} data-testid="approval-amount">
                    {formatAmount(e.amount)}
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>{t('paymentsClient.approval.category')}</Table.Th>
                  <Table.Td data-testid="approval-category">{e.categoryName ?? '—'}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>{t('paymentsClient.approval.date')}</Table.Th>
                  <Table.Td data-testid="approval-date">{formatDate(e.transactionDate)}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>{t('paymentsClient.approval.attachments')}</Table.Th>
                  <Table.Td>
                    {e.attachments.length === 0 ? (
                      <Text c="dimmed" size="sm">
                        {t('paymentsClient.approval.noAttachments')}
                      </Text>
                    ) : (
                      <Stack gap={4}>
                        {e.attachments.map((a) => (
                          <Anchor key={a.id} href={approvalFileUrl(id, token, a.id, a.name)} target="_blank" rel="noopener noreferrer" data-testid="approval-file">
                            {a.name}
                          </Anchor>
                        ))}
                      </Stack>
                    )}
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
            {e.confirmedByClientDate ? (
              <Alert color="green" data-testid="approval-done">
                {t('paymentsClient.approval.approved')}
              </Alert>
            ) : (
              <>
                {revert.isSuccess && (
                  <Alert color="blue" data-testid="approval-reverted">
                    {t('paymentsClient.approval.reverted')}
                  </Alert>
                )}
                <Button onClick={() => approve.mutate()} loading={approve.isPending} disabled={busy} data-testid="approval-approve">
                  {t('paymentsClient.approval.approve')}
                </Button>
              </>
            )}
            {e.canRevertApproval && (
              <Group justify="flex-end">
                <Button variant="subtle" color="red" onClick={() => revert.mutate()} loading={revert.isPending} disabled={busy} data-testid="approval-revert">
                  {t('paymentsClient.approval.revert')}
                </Button>
              </Group>
            )}
          </>
        )}
      </Stack>
    </PublicFrame>
  );
}
