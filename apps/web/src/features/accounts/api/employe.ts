import { queryOptions } from '@tanstack/react-query';
import type { TSelectOption, TSetPasswordPreview } from '@crm/contract';
import { api } from '../../../lib/api.ts';

export type TUserRole = { name: string; role: string | null; roleList: TSelectOption[] };

export const userRoleQuery = (id: number) =>
  queryOptions({ queryKey: ['userRole', id], queryFn: ({ signal }) => api<TUserRole>(`/api/UserRole/${id}`, { signal }), staleTime: 0 });

export const saveUserRole = (id: number, role: string) => api<unknown>(`/api/UserRole/${id}`, { body: { role } });

export const setPassword = (email: string, password: string) => api<{ message: string }>('/api/authenticate/setPassword', { body: { email, password } });

/** Mails the employee with this e-mail a link to choose the password (office admins); answers "Invitation sent to …". */
export const sendStaffInvitation = (email: string) => api<{ message: string }>('/api/authenticate/sendInvitation', { body: { email } });

/** Whose sign-in a password for this e-mail sets or creates, with which role and branch. */
export const setPasswordPreviewQuery = (email: string) =>
  queryOptions({
    queryKey: ['setPasswordPreview', email],
    queryFn: ({ signal }) => api<TSetPasswordPreview>(`/api/authenticate/setPassword/preview?email=${encodeURIComponent(email)}`, { signal }),
    staleTime: 0,
    retry: false,
    meta: { handlesErrors: true },
  });
