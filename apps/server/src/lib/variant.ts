import type { FastifyRequest } from 'fastify';
import type { TAppVariant } from '@crm/contract';
import type { Config } from '../config.ts';

/**
 * The app a request is for: the payments-only variant when the flag (PAYMENTS_ONLY) is set, or
 * when the request's host is exactly the payments host (PAYMENTS_HOST, letter case aside; with a
 * port in the setting the port must match too). Behind a trusted proxy the forwarded host counts.
 * The variant is what the web app shows; who may call what stays with the routes' access rules.
 */
export function appVariant(config: Pick<Config, 'paymentsHost' | 'paymentsOnly'>, req: Pick<FastifyRequest, 'host' | 'hostname'>): TAppVariant {
  if (config.paymentsOnly) return 'payments';
  const wanted = config.paymentsHost;
  if (!wanted) return 'crm';
  const asked = (wanted.includes(':') ? req.host : req.hostname)?.toLowerCase();
  return asked === wanted ? 'payments' : 'crm';
}

/**
 * The calls of the payments-only app (decision 019): sign-in and passwords, the app's settings and
 * texts, and the payments themselves. Where that app is served, no other call exists (404), whoever
 * asks; its pages are the web app's own (its screens and files), not the public site's or a
 * shortlist's.
 */
const PAYMENTS_APP_CALLS: readonly RegExp[] = [
  /^\/api\/authenticate\/(?:login|logout|me|changepassword|forgotpassword|resetpassword)$/i,
  /^\/api\/usersettings\/language$/i,
  /^\/api\/(?:config|health|ready|localization)$/i,
  /^\/api\/transactions(?:\/|$)/i,
];

/** Whether a route (its registered address) belongs to the payments-only app. */
export function isPaymentsAppRoute(url: string): boolean {
  if (!url.startsWith('/api')) return url === '/*';
  return PAYMENTS_APP_CALLS.some((re) => re.test(url));
}

/** Who may be signed in to the payments-only app: the agency's clients, and administrators where PAYMENTS_ADMINS allows. */
export function mayUsePaymentsApp(config: Pick<Config, 'paymentsAdmins'>, roles: readonly string[]): boolean {
  return roles.includes('clientPayments') || (config.paymentsAdmins && roles.includes('admin'));
}
