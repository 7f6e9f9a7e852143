import type { TLoginBody } from '@crm/contract';
import { SESSION } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';

export const login = (body: TLoginBody) => call(SESSION.calls.login, { body }, { handle401: true });
export const forgotPassword = (email: string) => call(SESSION.calls.forgotPassword, { body: { email } });
export const resetPassword = (body: { email: string; password: string; confirmPassword: string; code: string }) => call(SESSION.calls.resetPassword, { body });
