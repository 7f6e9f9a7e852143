import type { TLoginBody, TSessionUser } from '@crm/contract';
import { api } from '../../../lib/api.ts';

export const login = (body: TLoginBody) => api<TSessionUser>('/api/authenticate/login', { body, handle401: true });
export const forgotPassword = (email: string) => api<{ message: string }>('/api/authenticate/forgotPassword', { body: { email } });
export const resetPassword = (body: { email: string; password: string; confirmPassword: string; code: string }) =>
  api<{ message: string }>('/api/authenticate/resetPassword', { body });
