import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { SESSION_API } from '@crm/contract';
import { SESSION } from '@crm/contract/resources';
import { branches, users } from '../../db/schema/index.ts';
import { OFFICE_ADMIN, SIGNED_IN, fileCookieHeader, pageCookieHeader, secureFlag } from '../../plugins/auth.ts';
import { logAction } from '../../lib/audit.ts';
import { registerCalls } from '../../lib/calls.ts';
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

export const authRoutes = async (app: FastifyInstance) => {
  registerCalls(
    app,
    SESSION.calls,
    SESSION_API,
    {
      login: {
        access: 'public',
        handler: async (req, reply) => {
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
      },
      logout: {
        access: SIGNED_IN,
        handler: async (req, reply) => {
          await logout(app, req.user!.sessionId, req.actor);
          reply.removeHeader('set-cookie');
          reply.header('Set-Cookie', fileCookieHeader(req, null));
          reply.header('Set-Cookie', pageCookieHeader(req, null));
          return { ok: true as const };
        },
      },
      me: {
        access: SIGNED_IN,
        handler: async (req) => {
          const u = req.user!;
          return { username: u.username, email: u.email, userroles: u.roles, branchId: u.branchId, language: u.language, accountId: u.accountId };
        },
      },
      forgotPassword: {
        access: 'public',
        handler: async (req) => {
          await limitForgotPassword(app, req.body.email, req.ip);
          // Known or not, the answer leaves at once and alike; the lookup and the mail follow.
          const { email } = req.body;
          const culture = req.culture;
          inBackground(app, () => forgotPassword(app, email, culture));
          return { message: app.translator.t(req.culture, 'forgot.sent') };
        },
      },
      resetPassword: {
        access: 'public',
        handler: async (req) => {
          await resetPassword(app, req.body);
          return { message: app.translator.t(req.culture, 'reset.success') };
        },
      },
      setPassword: {
        access: OFFICE_ADMIN,
        handler: async (req) => {
          await setPassword(app, req.body, req.user!, req.actor, app.provisionSignIn);
          return { message: app.translator.t(req.culture, 'password.setSuccess', { email: req.body.email }) };
        },
      },
      changePassword: {
        access: SIGNED_IN,
        handler: async (req) => {
          await changeOwnPassword(app, req.body, req.user!, req.actor, { ip: req.ip });
          return { message: app.translator.t(req.culture, 'password.changed') };
        },
      },
      sendInvitation: {
        access: OFFICE_ADMIN,
        handler: async (req) => {
          const email = await sendStaffInvitation(app, req.body.email, req.user!, req.actor, req.culture, app.provisionSignIn);
          return { message: app.translator.t(req.culture, 'invite.sent', { email }) };
        },
      },
      setPasswordPreview: {
        access: OFFICE_ADMIN,
        handler: async (req) => {
          const d = await describeSetPassword(app, req.user!, req.query.email);
          const t = (key: string) => app.translator.t(req.culture, key);
          const branch = d.branchId === null ? null : t((await app.db.select().from(branches).where(eq(branches.id, d.branchId)))[0]?.nameKey ?? 'branch.notSet');
          return { ...d, roleNames: d.roles.map((r) => t(`accounts.role.${r}`)), branch };
        },
      },
      language: {
        access: SIGNED_IN,
        handler: async (req) => {
          await app.db.transaction(async (tx) => {
            await tx.update(users).set({ language: req.body.language, modifiedOn: new Date() }).where(eq(users.id, req.user!.id));
            await logAction(tx, req.actor, { action: 'Update', entity: 'User', entityId: req.user!.id, data: { language: req.body.language } });
          });
          return { ok: true as const };
        },
      },
    },
    { tags: ['session'] },
  );
};
