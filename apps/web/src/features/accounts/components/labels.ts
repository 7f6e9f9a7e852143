import type { TFunction } from 'i18next';

/** A branch as text: the branch's city, or "not set". */
export const branchText = (t: TFunction, branchId: number | null | undefined) => (branchId != null ? t(`branch.${branchId}`) : t('branch.notSet'));

/** A role name as the staff read it (admin, employee, ...); unknown names as they are. */
export const roleText = (t: TFunction, role: string | null | undefined) => (role ? t(`accounts.role.${role}`, { defaultValue: role }) : '');
