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
