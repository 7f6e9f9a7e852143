import { queryOptions } from '@tanstack/react-query';
import { ACCOUNT, SESSION } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';

export const userRoleQuery = (id: number) =>
  queryOptions({ queryKey: ['userRole', id], queryFn: ({ signal }) => call(ACCOUNT.calls.role, { params: { id } }, { signal }), staleTime: 0 });

export const saveUserRole = (id: number, role: string) => call(ACCOUNT.calls.setRole, { params: { id }, body: { role } });

export const setPassword = (email: string, password: string) => call(SESSION.calls.setPassword, { body: { email, password } });

/** Mails the employee with this e-mail a link to choose the password (office admins); answers "Invitation sent to …". */
export const sendStaffInvitation = (email: string) => call(SESSION.calls.sendInvitation, { body: { email } });

/** Whose sign-in a password for this e-mail sets or creates, with which role and branch. */
export const setPasswordPreviewQuery = (email: string) =>
  queryOptions({
    queryKey: ['setPasswordPreview', email],
    queryFn: ({ signal }) => call(SESSION.calls.setPasswordPreview, { query: { email } }, { signal }),
    staleTime: 0,
    retry: false,
    meta: { handlesErrors: true },
  });
