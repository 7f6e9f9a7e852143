import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TPaymentListRow } from '@crm/contract';
import { href, PAYMENT } from '@crm/contract/resources';
import { formatDateTime } from '../../../lib/format.ts';
import { isOfficeAdmin, useSession } from '../../../lib/session.ts';
import { variantStore } from '../../../lib/variant.ts';
import { useSavedFilter } from '../../../lib/list-state.ts';
import { ListScreen } from '../../../kit/list-screen.tsx';
import { linkColumn } from '../../../kit/link-column.tsx';
import { BalanceWords } from '../components/balance-words.tsx';
import { PAYMENT_SEARCH, PAYMENTS } from '../api/payments.ts';

type TSearch = { searchStr: string };

/** /Payments: the accounts that keep payments, with a count and a search by the start of any word of the name. */
export function PaymentsPage() {
  const { t } = useTranslation();
  const session = useSession();
  const variant = variantStore.use();
  // The search is kept as its text alone (cookie "PaymentList.search").
  const [search, setSearch] = useSavedFilter(PAYMENT_SEARCH);
  const held = [{ searchStr: search }, (next: TSearch | ((f: TSearch) => TSearch)) => setSearch((s) => (typeof next === 'function' ? next({ searchStr: s }) : next).searchStr)] as const;
  // New payments account is the CRM's account form: not where only the payments app is served (decision 019).
  const canAdd = isOfficeAdmin(session) && variant !== 'payments';
  return (
    <ListScreen
      {...PAYMENTS}
      saved={{ ...PAYMENTS.saved, filter: { held, initial: { searchStr: '' } } }}
      addTo={canAdd ? undefined : false}
      fields={() => [
        { kind: 'text', name: 'searchStr', label: t('payments.ui.search'), placeholder: t('payments.ui.searchHint'), search: true, testId: 'payments-search', span: { base: 12, sm: 8, md: 6 } },
      ]}
      columns={() => [
        {
          accessor: 'transactionModifiedOn',
          title: t('payments.ui.col.modifiedOn'),
          sortable: true,
          noWrap: true,
          width: 170,
          render: (r) => formatDateTime(r.transactionModifiedOn),
        },
        linkColumn<TPaymentListRow>('name', t('payments.ui.col.name'), (r) => href(PAYMENT.screens.statement, { id: r.id }), (r) => r.name, 'payment-account-link'),
        {
          // Who owes whom, by what was paid; unpaid expenses apart (issue 45).
          accessor: 'balance',
          title: t('payments.ui.col.balance'),
          render: (r) => <BalanceWords balance={r.balance} state={r.balanceState} toPay={r.toPay} testId="payment-account-balance" />,
        },
      ]}
    />
  );
}
