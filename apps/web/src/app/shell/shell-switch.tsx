import { usePaymentsApp } from '../../lib/variant.ts';
import { Layout } from './layout.tsx';
import { PaymentsLayout } from './payments-layout.tsx';

/** The signed-in shell: the CRM's, or the payments-only app's (payments host, flag, or a client's sign-in). */
export function ShellSwitch() {
  return usePaymentsApp() ? <PaymentsLayout /> : <Layout />;
}
