import { z } from 'zod';

import { LANGUAGES, ROLES } from './constants.ts';
import { SIGN_IN_EMAIL } from './site-settings.ts';
import { ZOk } from './common.ts';
import type { CallSchemas } from './call.ts';

export const ZRole = z.enum(ROLES);
export const ZLanguage = z.enum(LANGUAGES);

/** A sign-in's e-mail as typed (trimmed), and a password. */
const ZEmailInput = z.string().trim().min(1).max(320);
const ZPassword = z.string().min(1).max(1024);

export const ZLoginBody = z.object({ username: ZEmailInput, password: ZPassword });
export type TLoginBody = z.infer<typeof ZLoginBody>;

export const ZSessionUser = z.object({
  token: z.string(),
  username: z.string(),
  userroles: z.array(ZRole),
  branchId: z.number().int().nullable(),
  /** The user's saved interface language; null when never chosen. */
  language: ZLanguage.nullable(),
  /** The account (person) this sign-in belongs to, when there is one. */
  accountId: z.number().int().nullable(),
  expiresOn: z.string(),
});
export type TSessionUser = z.infer<typeof ZSessionUser>;

export const ZLanguageBody = z.object({ language: ZLanguage });

export const ZForgotPasswordBody = z.object({ email: ZEmailInput.regex(SIGN_IN_EMAIL, { message: 'validation.email' }) });
export const ZResetPasswordBody = z.object({ email: ZEmailInput, password: ZPassword, confirmPassword: ZPassword, code: z.string().min(1).max(200) });
export type TResetPasswordBody = z.infer<typeof ZResetPasswordBody>;
export const ZSetPasswordBody = z.object({ email: ZEmailInput, password: ZPassword });
export type TSetPasswordBody = z.infer<typeof ZSetPasswordBody>;
/** A signed-in user's own new password: the current one proves it is the owner, not a left-open session. */
export const ZChangePasswordBody = z.object({ currentPassword: ZPassword, password: ZPassword, confirmPassword: ZPassword });
export type TChangePasswordBody = z.infer<typeof ZChangePasswordBody>;
/** An office admin invites an employee to choose a password: the e-mail the employee will sign in with. */
export const ZSendInvitationBody = z.object({ email: ZEmailInput });
export type TSendInvitationBody = z.infer<typeof ZSendInvitationBody>;
/** Whose sign-in a password for an e-mail sets (hasSignIn) or creates, with which role and branch. */
export const ZSetPasswordPreview = z.object({
  email: z.string(),
  name: z.string(),
  roles: z.array(ZRole),
  roleNames: z.array(z.string()),
  branchId: z.number().int().nullable(),
  branch: z.string().nullable(),
  hasSignIn: z.boolean(),
  accountId: z.number().int().nullable(),
});
export type TSetPasswordPreview = z.infer<typeof ZSetPasswordPreview>;
export const ZMessage = z.object({ message: z.string() });

/** GET /api/authenticate/me: the session's user. */
export const ZMe = ZSessionUser.pick({ username: true, userroles: true, branchId: true, language: true, accountId: true }).extend({ email: z.string() });
export type TMe = z.infer<typeof ZMe>;
/** GET /api/authenticate/setPassword/preview: the e-mail a password would be set for. */
export const ZSetPasswordPreviewQuery = z.object({ email: ZEmailInput });

/** The session's calls and their schemas (decision 057): sign-in, passwords, the reader's language; their paths: `auth.resource.ts`. */
export const SESSION_API = {
  login: { body: ZLoginBody, answer: ZSessionUser },
  logout: { answer: ZOk },
  me: { answer: ZMe },
  forgotPassword: { body: ZForgotPasswordBody, answer: ZMessage },
  resetPassword: { body: ZResetPasswordBody, answer: ZMessage },
  setPassword: { body: ZSetPasswordBody, answer: ZMessage },
  changePassword: { body: ZChangePasswordBody, answer: ZMessage },
  sendInvitation: { body: ZSendInvitationBody, answer: ZMessage },
  setPasswordPreview: { query: ZSetPasswordPreviewQuery, answer: ZSetPasswordPreview },
  language: { body: ZLanguageBody, answer: ZOk },
} satisfies Record<string, CallSchemas>;
