import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  ZChangePasswordBody,
  ZForgotPasswordBody,
  ZLanguageBody,
  ZLoginBody,
  ZMessage,
  ZOk,
  ZResetPasswordBody,
  ZSessionUser,
  ZSetPasswordBody,
  ZSetPasswordPreview,
  ZSendInvitationBody,
  ZRole,
  ZLanguage,
} from '@crm/contract';
import { branches, users } from '../../db/schema/index.ts';
import { OFFICE_ADMIN, SIGNED_IN, fileCookieHeader, pageCookieHeader, secureFlag } from '../../plugins/auth.ts';
import { logAction } from '../../lib/audit.ts';
import { appVariant } from '../../lib/variant.ts';
import {
  changeOwnPassword,
  describeSetPassword,
  forgotPassword,
  limitForgotPassword,
  login,
  logout,
  resetPassword,
  sendStaffInvitation,
  setPassword,
} from './auth.service.ts';

const DEVICE_COOKIE = 'crm_device';

/** The known-device token the browser sent back (an HttpOnly cookie only the sign-in call sees). */
function deviceToken(cookieHeader: string | undefined): string | undefined {
  const m = new RegExp(`(?:^|;\\s*)${DEVICE_COOKIE}=([A-Za-z0-9_-]{43})(?:;|$)`).exec(cookieHeader ?? '');
  return m?.[1];
}

/** Work that runs after the answer has gone (its time must not show in the answer's); awaited on close. */
function inBackground(app: FastifyInstance, work: () => Promise<unknown>) {
  const p: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(async () => {
      await work();
    })
    .catch((err: unknown) => app.log.error({ err }, 'background work failed'))
    .finally(() => app.pendingWork.delete(p));
  app.pendingWork.add(p);
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/authenticate/login',
    { config: { access: 'public' }, schema: { tags: ['session'], body: ZLoginBody, response: { 200: ZSessionUser } } },
    async (req, reply) => {
      const { session, deviceToken: token } = await login(app, req.body, {
        ip: req.ip,
        userAgent: req.headers['user-agent'],
        deviceToken: deviceToken(req.headers.cookie),
        paymentsApp: appVariant(app.config, req) === 'payments',
      });
      reply.header(
        'Set-Cookie',
        `${DEVICE_COOKIE}=${token}; Path=/api/authenticate; Max-Age=${400 * 24 * 3600}; HttpOnly; SameSite=Strict${secureFlag(req)}`,
      );
      reply.header('Set-Cookie', fileCookieHeader(req, session.token));
      reply.header('Set-Cookie', pageCookieHeader(req, session.token));
      return session;
    },
  );

  app.post(
    '/api/authenticate/logout',
    { config: { access: SIGNED_IN }, schema: { tags: ['session'], response: { 200: ZOk } } },
    async (req, reply) => {
      await logout(app, req.user!.sessionId, req.actor);
      reply.removeHeader('set-cookie');
      reply.header('Set-Cookie', fileCookieHeader(req, null));
      reply.header('Set-Cookie', pageCookieHeader(req, null));
      return { ok: true as const };
    },
  );

  app.get(
    '/api/authenticate/me',
    {
      config: { access: SIGNED_IN },
      schema: {
        tags: ['session'],
        response: {
          200: z.object({
            username: z.string(),
            email: z.string(),
            userroles: z.array(ZRole),
            branchId: z.number().int().nullable(),
            language: ZLanguage.nullable(),
            accountId: z.number().int().nullable(),
          }),
        },
      },
    },
    async (req) => {
      const u = req.user!;
      return { username: u.username, email: u.email, userroles: u.roles, branchId: u.branchId, language: u.language, accountId: u.accountId };
    },
  );

  app.post(
    '/api/authenticate/forgotPassword',
    {
      config: { access: 'public' },
      schema: { tags: ['session'], body: ZForgotPasswordBody, response: { 200: ZMessage } },
    },
    async (req) => {
      await limitForgotPassword(app, req.body.email, req.ip);
      // Known or not, the answer leaves at once and alike; the lookup and the mail follow.
      const { email } = req.body;
      const culture = req.culture;
      inBackground(app, () => forgotPassword(app, email, culture));
      return { message: app.translator.t(req.culture, 'forgot.sent') };
    },
  );

  app.post(
    '/api/authenticate/resetPassword',
    { config: { access: 'public' }, schema: { tags: ['session'], body: ZResetPasswordBody, response: { 200: ZMessage } } },
    async (req) => {
      await resetPassword(app, req.body);
      return { message: app.translator.t(req.culture, 'reset.success') };
    },
  );

  app.post(
    '/api/authenticate/setPassword',
    { config: { access: OFFICE_ADMIN }, schema: { tags: ['session'], body: ZSetPasswordBody, response: { 200: ZMessage } } },
    async (req) => {
      await setPassword(app, req.body, req.user!, req.actor, app.provisionSignIn);
      return { message: app.translator.t(req.culture, 'password.setSuccess', { email: req.body.email }) };
    },
  );

  app.post(
    '/api/authenticate/changePassword',
    { config: { access: SIGNED_IN }, schema: { tags: ['session'], body: ZChangePasswordBody, response: { 200: ZMessage } } },
    async (req) => {
      await changeOwnPassword(app, req.body, req.user!, req.actor, { ip: req.ip });
      return { message: app.translator.t(req.culture, 'password.changed') };
    },
  );

  app.post(
    '/api/authenticate/sendInvitation',
    { config: { access: OFFICE_ADMIN }, schema: { tags: ['session'], body: ZSendInvitationBody, response: { 200: ZMessage } } },
    async (req) => {
      const email = await sendStaffInvitation(app, req.body.email, req.user!, req.actor, req.culture, app.provisionSignIn);
      return { message: app.translator.t(req.culture, 'invite.sent', { email }) };
    },
  );

  app.get(
    '/api/authenticate/setPassword/preview',
    {
      config: { access: OFFICE_ADMIN },
      schema: { tags: ['session'], querystring: z.object({ email: z.string().trim().min(1).max(320) }), response: { 200: ZSetPasswordPreview } },
    },
    async (req) => {
      const d = await describeSetPassword(app, req.user!, req.query.email);
      const t = (key: string) => app.translator.t(req.culture, key);
      const branch = d.branchId === null ? null : t((await app.db.select().from(branches).where(eq(branches.id, d.branchId)))[0]?.nameKey ?? 'branch.notSet');
      return { ...d, roleNames: d.roles.map((r) => t(`accounts.role.${r}`)), branch };
    },
  );

  app.post(
    '/api/UserSettings/Language',
    { config: { access: SIGNED_IN }, schema: { tags: ['session'], body: ZLanguageBody, response: { 200: ZOk } } },
    async (req) => {
      await app.db.transaction(async (tx) => {
        await tx.update(users).set({ language: req.body.language, modifiedOn: new Date() }).where(eq(users.id, req.user!.id));
        await logAction(tx, req.actor, { action: 'Update', entity: 'User', entityId: req.user!.id, data: { language: req.body.language } });
      });
      return { ok: true as const };
    },
  );
};
