import { calls } from './call.ts';
import type { SESSION_API } from './auth.ts';

/**
 * The session (spec: /api/authenticate/..., /api/UserSettings/Language): sign-in and out, the
 * user, passwords and invitations, the reader's language (decision 057).
 */
export const SESSION = {
  calls: calls<typeof SESSION_API>({
    login: 'POST /api/authenticate/login',
    logout: 'POST /api/authenticate/logout',
    me: 'GET /api/authenticate/me',
    forgotPassword: 'POST /api/authenticate/forgotPassword',
    resetPassword: 'POST /api/authenticate/resetPassword',
    setPassword: 'POST /api/authenticate/setPassword',
    changePassword: 'POST /api/authenticate/changePassword',
    sendInvitation: 'POST /api/authenticate/sendInvitation',
    setPasswordPreview: 'GET /api/authenticate/setPassword/preview',
    language: 'POST /api/UserSettings/Language',
  }),
  screens: {
    login: '/login',
    forgotPassword: '/ForgotPassword',
    resetPassword: '/ResetPassword',
  },
} as const;
