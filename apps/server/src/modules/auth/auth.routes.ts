import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  ZForgotPasswordBody,
  ZLanguageBody,
  ZLoginBody,
  ZMessage,
  ZOk,
  ZResetPasswordBody,
  ZSessionUser,
  ZSetPasswordBody,
  ZRole,
  ZLanguage,
} from '@crm/contract';
import { users } from '../../db/schema/index.ts';
import { ADMIN, SIGNED_IN } from '../../plugins/auth.ts';
import { logAction } from '../../lib/audit.ts';
import { forgotPassword, login, logout, resetPassword, setPassword } from './auth.service.ts';

const origin = (req: { protocol: string; host: string }) => `${req.protocol}://${req.host}`;

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/authenticate/login',
    { config: { access: 'public' }, schema: { tags: ['session'], body: ZLoginBody, response: { 200: ZSessionUser } } },
    async (req) => login(app, req.body, { ip: req.ip, userAgent: req.headers['user-agent'] }),
  );

  app.post(
    '/api/authenticate/logout',
    { config: { access: SIGNED_IN }, schema: { tags: ['session'], response: { 200: ZOk } } },
    async (req) => {
      await logout(app, req.user!.sessionId, req.actor);
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
      await forgotPassword(app, req.body.email, origin(req), req.culture);
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
    { config: { access: ADMIN }, schema: { tags: ['session'], body: ZSetPasswordBody, response: { 200: ZMessage } } },
    async (req) => {
      await setPassword(app, req.body, { ...req.actor, sessionId: req.user!.sessionId }, app.provisionSignIn);
      return { message: app.translator.t(req.culture, 'password.setSuccess', { email: req.body.email }) };
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
