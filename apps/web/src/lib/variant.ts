import type { TAppVariant, TSessionUser } from '@crm/contract';
import { SHELL, urlOf, PAYMENT, href } from '@crm/contract/resources';
import { createStore } from './store.ts';
import { useSession } from './session.ts';
import { takeBootRequest } from './boot.ts';
import { setAgencyZone } from './agency-clock.ts';

/**
 * Which app this host serves (GET /api/config): the CRM or the payments-only variant. Kept in
 * localStorage (one per host, as storage is per origin) so that a later start renders at once; it
 * is asked again in the background on every start.
 */
const KEY = 'crm.variant';

function read(): TAppVariant | null {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'crm' || v === 'payments' ? v : null;
  } catch {
    return null;
  }
}

export const variantStore = createStore<TAppVariant | null>(read());

async function fetchVariant(): Promise<TAppVariant> {
  // The first ask was started by index.html, before the scripts loaded.
  const res = await (takeBootRequest('config') ?? fetch(urlOf(SHELL.calls.config, {}), { credentials: 'omit' }));
  if (!res.ok) throw new Error(`GET ${SHELL.calls.config.path}: ${res.status}`);
  const config = (await res.json()) as { variant?: TAppVariant; timeZone?: string; clock?: unknown };
  const v = config.variant === 'payments' ? 'payments' : 'crm';
  setAgencyZone(config.timeZone, config.clock);
  try {
    localStorage.setItem(KEY, v);
  } catch {
    // Storage disabled: asked again next time.
  }
  variantStore.set(v);
  return v;
}

/** true when the variant is known already; otherwise a promise that settles once it is (CRM if the server cannot say). */
export function initVariant(): true | Promise<void> {
  const asking = fetchVariant();
  if (variantStore.get()) {
    asking.catch(() => undefined);
    return true;
  }
  return asking.then(
    () => undefined,
    () => variantStore.set('crm'),
  );
}

/** A sign-in that is a payments client and nothing else (no staff role). */
export const isPaymentsClientOnly = (s: TSessionUser | null) => !!s && s.userroles.includes('clientPayments') && !s.userroles.some((r) => r === 'admin' || r === 'employee');

/** The payments-only app: on the payments host (or with the flag), and for a client's sign-in on any host. */
export function usePaymentsApp(): boolean {
  const variant = variantStore.use();
  const session = useSession();
  return variant === 'payments' || isPaymentsClientOnly(session);
}

/** Where home is in the payments app: the account list for staff, the client's own statement for a client. */
export function paymentsHome(s: TSessionUser | null): string {
  if (!s) return '/login';
  if (isPaymentsClientOnly(s)) return s.accountId ? href(PAYMENT.screens.statement, { id: s.accountId }) : '/login';
  return '/Payments';
}

/**
 * The screens of the payments app: a client its own statement only; staff the payments screens, Set
 * password, an account's page (the statement's name links to it), and New payments account (the
 * payments list's button, and the spec's /Payments/AccountAdd that leads to it).
 */
export function allowedInPaymentsApp(s: TSessionUser | null, pathname: string): boolean {
  if (!s) return false;
  if (isPaymentsClientOnly(s)) return s.accountId != null && new RegExp(`^/Payments/View/${s.accountId}/?$`, 'i').test(pathname);
  return /^\/(Payments(\/|$)|SetPassword\/|Accounts\/View\/|Accounts\/AddPayment\/?$)/i.test(pathname);
}
