import type { Access, SessionUser } from '../../plugins/auth.ts';
import { accessDenied } from '../../lib/errors.ts';

/**
 * Who reaches payments. Staff without a branch (the spec hides payments from a branch's menu) read
 * every account's statement; a clientPayments user reads only the account its sign-in belongs to.
 * Admins (without a branch) add, edit and delete transactions.
 */
export const PAYMENTS_READ: Access = { roles: ['admin', 'employee', 'clientPayments'], branch: false };
export const PAYMENTS_WRITE: Access = { roles: ['admin'], branch: false };

export const isPaymentsStaff = (u: SessionUser) => u.roles.includes('admin') || u.roles.includes('employee');
export const canEditPayments = (u: SessionUser) => u.roles.includes('admin') && u.branchId === null;

/**
 * The one check of every payments call that names an account (directly, or through a transaction
 * or an attachment): staff pass; a client passes for its own account only.
 */
export function assertAccountReadable(user: SessionUser, accountId: number): void {
  if (isPaymentsStaff(user)) return;
  if (user.roles.includes('clientPayments') && user.accountId !== null && user.accountId === accountId) return;
  throw accessDenied();
}

/** The only account a client may list; null for staff (every account). */
export const ownAccountOnly = (user: SessionUser): number | null => (isPaymentsStaff(user) ? null : (user.accountId ?? 0));

/**
 * The account's own payments client: a clientPayments sign-in that belongs to the account (a staff
 * member who is also a payments client counts for their own account only). Only they approve the
 * account's expenses from the statement; staff never approve for them.
 */
export const isAccountClient = (u: SessionUser, accountId: number) => u.roles.includes('clientPayments') && u.accountId !== null && u.accountId === accountId;

/** The calls only a payments client makes (its own approvals on the statement). */
export const PAYMENTS_CLIENT: Access = { roles: ['clientPayments'], branch: false };
