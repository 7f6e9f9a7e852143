import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { cultureOf, PASSWORD_MIN_LENGTH, type TLanguage, type TRole, type TSessionUser } from '@crm/contract';
import { loginFailures, passwordResets, sessions, users } from '../../db/schema/index.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { dummyHash, hashPassword, newToken, sha256, verifyPassword } from '../../lib/passwords.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import type { Db, Tx } from '../../db/client.ts';

const RESET_HOURS = 2;
const RESETS_PER_HOUR = 3;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function findUserByEmail(db: Db | Tx, email: string) {
  const [u] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${normalizeEmail(email)}`)
    .limit(1);
  return u;
}

/** Refuses a sign-in while the account or the address is locked out. */
async function checkThrottle(app: FastifyInstance, keys: string[]) {
  const rows = await app.db
    .select()
    .from(loginFailures)
    .where(and(inArray(loginFailures.key, keys), gt(loginFailures.lockedUntil, new Date())));
  if (rows.length) {
    const until = Math.max(...rows.map((r) => r.lockedUntil!.getTime()));
    const minutes = Math.max(1, Math.ceil((until - Date.now()) / 60000));
    throw new AppError(429, 'errors.tooManyLogins', { minutes });
  }
}

async function recordFailure(app: FastifyInstance, key: string, max: number) {
  const { lockMinutes } = app.config.login;
  const window = `${lockMinutes} minutes`;
  // Count failures within a window; the count restarts once the window has passed.
  await app.db.execute(sql`
    insert into login_failures (key, failures, first_failure_on, locked_until)
    values (${key}, 1, now(), ${max <= 1 ? sql`now() + ${window}::interval` : null})
    on conflict (key) do update set
      failures = case when login_failures.first_failure_on < now() - ${window}::interval then 1 else login_failures.failures + 1 end,
      first_failure_on = case when login_failures.first_failure_on < now() - ${window}::interval then now() else login_failures.first_failure_on end,
      locked_until = case
        when (case when login_failures.first_failure_on < now() - ${window}::interval then 1 else login_failures.failures + 1 end) >= ${max}
        then now() + ${window}::interval else login_failures.locked_until end`);
}

export async function createSession(app: FastifyInstance, tx: Db | Tx, user: typeof users.$inferSelect, meta: { ip?: string; userAgent?: string }): Promise<TSessionUser> {
  const token = newToken();
  const expiresOn = new Date(Date.now() + app.config.sessionHours * 3600 * 1000);
  await tx.insert(sessions).values({
    userId: user.id,
    tokenHash: sha256(token),
    expiresOn,
    ip: meta.ip ?? null,
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
  });
  return {
    token,
    username: user.username,
    userroles: user.roles as TRole[],
    branchId: user.branchId,
    language: (user.language as TLanguage | null) ?? null,
    accountId: user.accountId,
    expiresOn: expiresOn.toISOString(),
  };
}

export async function login(app: FastifyInstance, body: { username: string; password: string }, meta: { ip: string; userAgent?: string }) {
  const email = normalizeEmail(body.username);
  const accountKey = `a:${email}`;
  const ipKey = `ip:${meta.ip}`;
  await checkThrottle(app, [accountKey, ipKey]);
  const user = await findUserByEmail(app.db, email);
  const ok = user && !user.disabled ? await verifyPassword(body.password, user.passwordHash) : (await verifyPassword(body.password, await dummyHash(app.config.passwordHashFast)), false);
  if (!user || !ok) {
    await recordFailure(app, accountKey, app.config.login.maxFailuresPerAccount);
    await recordFailure(app, ipKey, app.config.login.maxFailuresPerIp);
    throw new AppError(401, 'login.incorrect');
  }
  return app.db.transaction(async (tx) => {
    await tx.delete(loginFailures).where(eq(loginFailures.key, accountKey));
    const session = await createSession(app, tx, user, meta);
    await logAction(tx, { id: user.id, name: user.username }, { action: 'Login', entity: 'User', entityId: user.id, data: { ip: meta.ip } });
    return session;
  });
}

export async function logout(app: FastifyInstance, sessionId: number, actor: Actor) {
  await app.db.transaction(async (tx) => {
    await tx.update(sessions).set({ revokedOn: new Date() }).where(eq(sessions.id, sessionId));
    await logAction(tx, actor, { action: 'Logout', entity: 'User', entityId: actor.id });
  });
}

function checkNewPassword(password: string, field = 'password') {
  if (password.length < PASSWORD_MIN_LENGTH) throw fieldError(field, 'validation.passwordTooShort', { min: PASSWORD_MIN_LENGTH });
}

/** Sets a password and ends the user's other sessions. */
async function changePassword(app: FastifyInstance, tx: Tx, userId: number, password: string, keepSessionId?: number) {
  const hash = await hashPassword(password, app.config.passwordHashFast);
  await tx.update(users).set({ passwordHash: hash, passwordChangedOn: new Date(), modifiedOn: new Date() }).where(eq(users.id, userId));
  await tx
    .update(sessions)
    .set({ revokedOn: new Date() })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedOn),
        keepSessionId ? sql`${sessions.id} <> ${keepSessionId}` : undefined,
      ),
    );
}

export function resetLink(app: FastifyInstance, origin: string, code: string, email: string) {
  const base = app.config.publicUrl ?? origin;
  return `${base}/ResetPassword?code=${encodeURIComponent(code)}&email=${encodeURIComponent(email)}`;
}

export async function forgotPassword(app: FastifyInstance, email: string, origin: string, requestCulture: string) {
  const user = await findUserByEmail(app.db, email);
  // The answer is the same whether or not the address is known: nothing to learn by probing.
  if (!user || user.disabled) return;
  // At most a few reset mails an hour per user: the form cannot be used to flood someone's inbox.
  const [{ recent }] = (
    await app.db.execute(sql`select count(*)::int as recent from password_resets where user_id = ${user.id} and created_on > now() - interval '1 hour'`)
  ).rows as { recent: number }[];
  if (recent >= RESETS_PER_HOUR) return;
  const code = newToken();
  await app.db.transaction(async (tx) => {
    await tx.insert(passwordResets).values({
      userId: user.id,
      codeHash: sha256(code),
      expiresOn: new Date(Date.now() + RESET_HOURS * 3600 * 1000),
    });
    await logAction(tx, { id: null, name: null }, { action: 'PasswordResetRequested', entity: 'User', entityId: user.id });
  });
  const culture = user.language ? cultureOf(user.language) : cultureOf(requestCulture === 'en' ? 'en-UK' : requestCulture);
  const t = (key: string, params?: Record<string, string | number>) => app.translator.t(culture, key, params);
  const link = resetLink(app, origin, code, user.email);
  await app.mailer.send({
    to: user.email,
    subject: t('mail.reset.subject'),
    text: `${t('mail.reset.greeting', { name: user.username })}\n\n${t('mail.reset.body', { hours: RESET_HOURS })}\n\n${link}\n\n${t('mail.reset.ignore')}\n`,
  });
}

export async function resetPassword(app: FastifyInstance, body: { email: string; password: string; confirmPassword: string; code: string }) {
  if (body.password !== body.confirmPassword) throw fieldError('confirmPassword', 'reset.passwordsShouldMatch');
  checkNewPassword(body.password);
  const user = await findUserByEmail(app.db, body.email);
  if (!user) throw new AppError(400, 'errors.resetCodeInvalid');
  await app.db.transaction(async (tx) => {
    const [reset] = await tx
      .select()
      .from(passwordResets)
      .where(
        and(
          eq(passwordResets.userId, user.id),
          eq(passwordResets.codeHash, sha256(body.code)),
          isNull(passwordResets.usedOn),
          gt(passwordResets.expiresOn, new Date()),
        ),
      )
      .for('update')
      .limit(1);
    if (!reset) throw new AppError(400, 'errors.resetCodeInvalid');
    await tx.update(passwordResets).set({ usedOn: new Date() }).where(eq(passwordResets.userId, user.id));
    await changePassword(app, tx, user.id, body.password);
    await tx.delete(loginFailures).where(eq(loginFailures.key, `a:${normalizeEmail(user.email)}`));
    await logAction(tx, { id: user.id, name: user.username }, { action: 'PasswordReset', entity: 'User', entityId: user.id });
  });
}

/**
 * An admin sets the password of the sign-in with this e-mail. `provision` may create the
 * sign-in when none exists (accounts plug in here); without it an unknown e-mail is an error.
 */
export async function setPassword(
  app: FastifyInstance,
  body: { email: string; password: string },
  actor: Actor & { sessionId?: number },
  provision?: (tx: Tx, email: string) => Promise<typeof users.$inferSelect | undefined>,
) {
  checkNewPassword(body.password);
  await app.db.transaction(async (tx) => {
    let user: typeof users.$inferSelect | undefined = await findUserByEmail(tx, body.email);
    if (!user && provision) user = await provision(tx, normalizeEmail(body.email));
    if (!user) throw fieldError('email', 'errors.noUserWithEmail', { email: body.email });
    await changePassword(app, tx, user.id, body.password, user.id === actor.id ? actor.sessionId : undefined);
    await tx.delete(loginFailures).where(eq(loginFailures.key, `a:${normalizeEmail(user.email)}`));
    await logAction(tx, actor, { action: 'SetPassword', entity: 'User', entityId: user.id, message: user.email });
  });
}

/** Creates the first admin once: only while no admin sign-in exists. */
export async function ensureFirstAdmin(app: FastifyInstance, email: string, password: string): Promise<boolean> {
  return app.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727275)`);
    const [{ n }] = (await tx.execute(sql`select count(*)::int as n from users where 'admin' = any(roles)`)).rows as { n: number }[];
    if (n > 0) return false;
    const existing = await findUserByEmail(tx, email);
    if (existing) return false;
    const hash = await hashPassword(password, app.config.passwordHashFast);
    const [u] = await tx
      .insert(users)
      .values({ email, username: email, passwordHash: hash, roles: ['admin'], passwordChangedOn: new Date() })
      .returning();
    await logAction(tx, { id: null, name: 'system' }, { action: 'Create', entity: 'User', entityId: u!.id, message: 'First administrator' });
    return true;
  });
}
