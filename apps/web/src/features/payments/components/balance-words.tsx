import { Stack, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TBalanceState } from '@crm/contract';
import { formatAmount } from '../../../lib/format.ts';

/** The amount without its sign: the words say which way it is owed. */
const unsigned = (amount: string) => (amount.startsWith('-') ? amount.slice(1) : amount);

/**
 * Who owes whom on an account, in words (issue 45): "The owner is owed 1 240,00 €", "Owes the agency
 * 80,00 €", or settled; and its unpaid expenses apart ("To pay: …"), which the balance does not count.
 */
export function BalanceWords({ balance, state, toPay, size = 'sm', testId }: { balance: string; state: TBalanceState; toPay: string; size?: 'sm' | 'md'; testId: string }) {
  const { t } = useTranslation();
  const words =
    state === 'owed' ? t('payments.ui.balanceOwed', { amount: formatAmount(balance) }) : state === 'owes' ? t('payments.ui.balanceOwes', { amount: formatAmount(unsigned(balance)) }) : t('payments.ui.balanceSettled');
  const unpaid = !/^0*(\.0*)?$/.test(toPay);
  return (
    <Stack gap={0}>
      <Text size={size} fw={600} c={state === 'owes' ? 'red.9' : undefined} data-testid={testId} data-state={state} data-value={balance}>
        {words}
      </Text>
      {unpaid && (
        <Text size="xs" fw={500} data-testid={`${testId}-to-pay`} data-value={toPay}>
          {t('payments.ui.toPayAmount', { amount: formatAmount(toPay) })}
        </Text>
      )}
    </Stack>
  );
}
