import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { cultureOf, type TCulture, type TLanguage, type TRole, type TSessionUser, LOG_MESSAGE } from '@crm/contract';
import { accounts, loginDevices, loginFailures, passwordResets, sessions, users } from '../../db/schema/index.ts';
import { accessDenied, AppError, fieldError } from '../../lib/errors.ts';
import { passwordProblem } from '../../lib/password-policy.ts';
import { clearAttempts, pruneAttempts, rateLimit, refundAttempt, reserveAttempt } from '../../lib/throttle.ts';
import { WorkLimiter } from '../../lib/work-limiter.ts';
import { dummyHash, hashPassword, newToken, sha256, verifyPassword } from '../../lib/passwords.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { mayUsePaymentsApp } from '../../lib/variant.ts';
import { MAIL_LETTERS, buildMail } from '../../mail/mail-people.ts';
import { linkBase, paymentsLinkBase } from '../settings/site-settings.service.ts';

const RESET_HOURS = 2;
const RESETS_PER_HOUR = 3;
const FORGOTS_PER_CLIENT_HOUR = 10;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function findUserByEmail(db: Db | Tx, email: string) {
  const [u] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${normalizeEmail(email)}`)
    .limit(1);
  return u;
}

/** The file the first start writes the generated admin password to; removed once it is changed. */
export const initialAdminPasswordFile = (dataDir: string) => path.join(dataDir, 'initial-admin-password.txt');

/** The slow password checks that may run or wait at once, per app (bounded: see WorkLimiter). */
const hashLimiters = new WeakMap<FastifyInstance, WorkLimiter>();
function hashLimiter(app: FastifyInstance) {
  let l = hashLimiters.get(app);
  if (!l) {
    l = new WorkLimiter(Math.max(1, Math.min(4, os.availableParallelism())), app.config.login.hashQueue);
    hashLimiters.set(app, l);
  }
  return l;
}

function tooManyTries(waitSeconds: number) {
  return waitSeconds >= 60
    ? new AppError(429, 'errors.tooManyLogins', { minutes: Math.ceil(waitSeconds / 60) })
    : new AppError(429, 'errors.tooManyLoginsSeconds', { seconds: waitSeconds });
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

/**
 * Signs in. Tries are counted before the password is checked (atomically, see reserveAttempt):
 * per account and per client address, or, from a browser that signed in to this account before
 * (its device token), per that device alone, so an attacker's failures never slow the owner down.
 * A successful sign-in answers the session and the device token to keep.
 */
export async function login(
  app: FastifyInstance,
  body: { username: string; password: string },
  meta: SignInMeta,
): Promise<{ session: TSessionUser; deviceToken: string }> {
  // Sign-ins without a device token are admitted only as many at once as password checks can
  // run or wait: a flood is refused before it queues any database work ahead of real users.
  if (meta.deviceToken) return signIn(app, body, meta);
  const state = anonymousSignIns(app);
  if (state.inFlight >= hashLimiter(app).capacity) throw new AppError(429, 'errors.serverBusy');
  state.inFlight++;
  try {
    return await signIn(app, body, meta);
  } finally {
    state.inFlight--;
  }
}

const inFlight = new WeakMap<FastifyInstance, { inFlight: number }>();
function anonymousSignIns(app: FastifyInstance) {
  let s = inFlight.get(app);
  if (!s) inFlight.set(app, (s = { inFlight: 0 }));
  return s;
}

/** Where a sign-in comes from: the caller's address and browser, its device cookie, and whether it is the payments-only app's. */
type SignInMeta = { ip: string; userAgent?: string; deviceToken?: string; paymentsApp?: boolean };

async function signIn(
  app: FastifyInstance,
  body: { username: string; password: string },
  meta: SignInMeta,
): Promise<{ session: TSessionUser; deviceToken: string }> {
  const email = normalizeEmail(body.username);
  const { maxFailuresPerAccount, maxFailuresPerIp, lockMinutes } = app.config.login;
  const user = await findUserByEmail(app.db, email);
  const [device] =
    user && meta.deviceToken
      ? await app.db
          .select({ id: loginDevices.id })
          .from(loginDevices)
          .where(and(eq(loginDevices.tokenHash, sha256(meta.deviceToken)), eq(loginDevices.userId, user.id)))
          .limit(1)
      : [];
  const accountKey = device ? `d:${device.id}` : `a:${email}`;
  const ipKey = `ip:${meta.ip}`;
  const keys = device
    ? [{ key: accountKey, free: maxFailuresPerAccount }]
    : [
        { key: accountKey, free: maxFailuresPerAccount },
        { key: ipKey, free: maxFailuresPerIp },
      ];
  const opts = { maxDelaySeconds: lockMinutes * 60, resetAfterSeconds: Math.max(3600, lockMinutes * 240) };
  const wait = await reserveAttempt(app.db, keys, opts);
  if (wait !== null) throw tooManyTries(wait);
  if (Math.random() < 0.01) await pruneAttempts(app.db);

  // An unknown e-mail costs the same time as a wrong password: nothing to learn from the timing.
  const checked = await hashLimiter(app).run(
    async () =>
      user && !user.disabled
        ? verifyPassword(body.password, user.passwordHash)
        : (await verifyPassword(body.password, await dummyHash(app.config.passwordHashFast)), false),
    Boolean(device),
  );
  if (!checked) {
    // Too many sign-ins waiting for a password check: this try does not count against anyone.
    for (const k of keys) await refundAttempt(app.db, k.key);
    throw new AppError(429, 'errors.serverBusy');
  }
  if (!user || !checked.value) throw new AppError(401, 'login.incorrect');

  await clearAttempts(app.db, [accountKey]);
  if (!device) await refundAttempt(app.db, ipKey);
  // The payments-only app is its clients' (decision 019): a staff member is sent to the CRM's address.
  if (meta.paymentsApp && !mayUsePaymentsApp(app.config, user.roles as string[])) throw new AppError(403, 'login.paymentsStaff');
  const deviceToken = meta.deviceToken && /^[A-Za-z0-9_-]{43}$/.test(meta.deviceToken) ? meta.deviceToken : newToken();
  return app.db.transaction(async (tx) => {
    if (device) await tx.update(loginDevices).set({ lastUsedOn: new Date() }).where(eq(loginDevices.id, device.id));
    else {
      await tx.insert(loginDevices).values({ userId: user.id, tokenHash: sha256(deviceToken) }).onConflictDoNothing();
      await tx.execute(sql`delete from login_devices where user_id = ${user.id} and last_used_on < now() - interval '400 days'`);
    }
    const session = await createSession(app, tx, user, meta);
    await logAction(tx, { id: user.id, name: user.username }, { action: 'Login', entity: 'User', entityId: user.id, data: { ip: meta.ip, knownDevice: Boolean(device) } });
    return { session, deviceToken };
  });
}

export async function logout(app: FastifyInstance, sessionId: number, actor: Actor) {
  await app.db.transaction(async (tx) => {
    await tx.update(sessions).set({ revokedOn: new Date() }).where(eq(sessions.id, sessionId));
    await logAction(tx, actor, { action: 'Logout', entity: 'User', entityId: actor.id });
  });
}

function checkNewPassword(password: string, email: string, field = 'password') {
  const problem = passwordProblem(password, email);
  if (problem) throw fieldError(field, problem.code, problem.params);
}

/**
 * The generated first password is no secret to keep once it no longer works: its file goes when
 * that admin's password has changed (called after the change is committed, so a failed change
 * leaves the file and the password that still works).
 */
function forgetInitialPassword(app: FastifyInstance, email: string) {
  const file = initialAdminPasswordFile(app.config.dataDir);
  try {
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8').split('\n')[0]?.trim().toLowerCase() === normalizeEmail(email)) fs.rmSync(file, { force: true });
  } catch (err) {
    app.log.warn({ err }, 'could not remove the initial password file');
  }
}

/**
 * Sets a password, ends the user's other sessions and spends every open reset or invitation link:
 * a password set any other way (Set password, Change password) must close a link still lying in a
 * mailbox, most of all a week-long invitation.
 */
async function changePassword(app: FastifyInstance, tx: Tx, userId: number, password: string, keepSessionId?: number) {
  const hash = await hashPassword(password, app.config.passwordHashFast);
  await tx.update(users).set({ passwordHash: hash, passwordChangedOn: new Date(), modifiedOn: new Date() }).where(eq(users.id, userId));
  await tx.update(passwordResets).set({ usedOn: new Date() }).where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedOn)));
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

/**
 * Links in mail come from the settings' public address, else the configuration (PUBLIC_URL, or the
 * payments host's address for a payments client's sign-in), never from the request.
 */
export function resetLink(app: FastifyInstance, code: string, email: string, base = app.config.publicUrl, invite = false) {
  return `${base}/ResetPassword?code=${encodeURIComponent(code)}&email=${encodeURIComponent(email)}${invite ? '&invite=1' : ''}`;
}

/** A sign-in of the payments-only app alone (an owner reading the statement): its mails lead there. */
export const paymentsClientOnly = (roles: readonly string[]) => roles.length > 0 && roles.every((r) => r === 'clientPayments');

/**
 * Rate limits of the forgot-password form, checked and counted atomically: per client address
 * and per typed address (whether or not anybody has it). Throws a 429 when over.
 */
export async function limitForgotPassword(app: FastifyInstance, email: string, ip: string) {
  const wait = (await rateLimit(app.db, `fp:ip:${ip}`, FORGOTS_PER_CLIENT_HOUR, 3600)) ?? (await rateLimit(app.db, `fp:a:${normalizeEmail(email)}`, RESETS_PER_HOUR, 3600));
  if (wait !== null) throw new AppError(429, 'errors.tooManyRequestsWait', { minutes: Math.ceil(wait / 60) });
}

/** Mails a reset link when the address belongs to a sign-in. Runs after the answer has gone. */
export async function forgotPassword(app: FastifyInstance, email: string, requestCulture: string) {
  const user = await findUserByEmail(app.db, email);
  if (!user || user.disabled) return;
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
  // An owner of the payments-only app resets it there, under its name, not on the staff's CRM.
  const payments = paymentsClientOnly(user.roles as string[]);
  const link = resetLink(app, code, user.email, payments ? await paymentsLinkBase(app) : await linkBase(app));
  const { mail } = await buildMail(app, {
    to: user.email,
    accountId: user.accountId,
    culture,
    fallback: culture,
    letter: MAIL_LETTERS.reset({ link, hours: RESET_HOURS, payments }),
  });
  await app.mailer.send(mail);
}

export async function resetPassword(app: FastifyInstance, body: { email: string; password: string; confirmPassword: string; code: string }) {
  if (body.password !== body.confirmPassword) throw fieldError('confirmPassword', 'reset.passwordsShouldMatch');
  checkNewPassword(body.password, body.email);
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
    // The e-mailed link proves the owner: tries counted against the account start over.
    await tx.delete(loginFailures).where(eq(loginFailures.key, `a:${normalizeEmail(user.email)}`));
    await logAction(tx, { id: user.id, name: user.username }, { action: 'PasswordReset', entity: 'User', entityId: user.id });
  });
  forgetInitialPassword(app, user.email);
}

/**
 * Who may set the password of `target` (a sign-in, or none yet): office admins only (admins
 * without a branch), and an administrator's password only by that administrator; everybody else
 * uses the reset mail.
 */
function checkMaySetPassword(caller: SessionUser, target: { id?: number; roles: readonly string[] }) {
  if (!caller.roles.includes('admin') || caller.branchId !== null) throw accessDenied();
  if (target.roles.includes('admin') && target.id !== caller.id) throw new AppError(403, 'password.adminOwnOnly');
}

/**
 * One sign-in per account: a second address of an account that signs in already would be a second
 * way in with its role (an administrator's too), named as that person in every record.
 */
async function refuseSecondSignIn(db: Db | Tx, accountId: number) {
  const [u] = await db.select({ email: users.email }).from(users).where(and(eq(users.accountId, accountId), eq(users.disabled, false))).limit(1);
  if (u) throw fieldError('email', 'errors.accountHasSignIn', { email: u.email });
}

/** Whose sign-in a password for this e-mail sets (or creates), with which role and branch. */
export async function describeSetPassword(app: FastifyInstance, caller: SessionUser, email: string) {
  const found = await findUserByEmail(app.db, email);
  const user = found?.disabled && !(await app.findSignInAccount?.(app.db, email)) ? undefined : found;
  if (user && !user.disabled) {
    checkMaySetPassword(caller, user);
    return { email: user.email, name: user.username, roles: user.roles as TRole[], branchId: user.branchId, hasSignIn: true, accountId: user.accountId };
  }
  const a = await app.findSignInAccount?.(app.db, email);
  if (!a) throw fieldError('email', 'errors.noSignInForEmail', { email });
  // A new sign-in (an admin's too) is the office admin's to create: the preview says which role it gets.
  if (!caller.roles.includes('admin') || caller.branchId !== null) throw accessDenied();
  await refuseSecondSignIn(app.db, a.id);
  return { email: normalizeEmail(email), name: a.displayName, roles: [a.role], branchId: a.branchId, hasSignIn: false, accountId: a.id };
}

type Provision = (tx: Tx, email: string, actor: Actor) => Promise<typeof users.$inferSelect | undefined>;

/**
 * The sign-in an office admin's password or invitation is for, in the caller's transaction: the one
 * with this e-mail, an ended one brought back with its employee account's role and branch, or one
 * `provision` creates (accounts plug in here); without it an unknown e-mail is an error. An
 * invitation may be sent again to a sign-in that has no password yet (an administrator's too: it
 * never chose one, and the link goes to its own address).
 */
async function signInFor(app: FastifyInstance, tx: Tx, email: string, caller: SessionUser, actor: Actor, provision?: Provision, invitation = false) {
  let user: typeof users.$inferSelect | undefined = await findUserByEmail(tx, email);
  if (user?.disabled) {
    // An ended sign-in comes back only for an employee account with this e-mail, with its role now.
    const a = await app.findSignInAccount?.(tx, email);
    if (!a) throw fieldError('email', 'errors.noSignInForEmail', { email });
    await refuseSecondSignIn(tx, a.id);
    [user] = await tx
      .update(users)
      .set({ disabled: false, roles: [a.role], branchId: a.branchId, accountId: a.id, modifiedOn: new Date() })
      .where(eq(users.id, user.id))
      .returning();
  } else if (user) {
    if (!(invitation && user.passwordHash === null)) checkMaySetPassword(caller, user);
  } else if (provision) {
    const a = await app.findSignInAccount?.(tx, email);
    if (a) await refuseSecondSignIn(tx, a.id);
    user = await provision(tx, normalizeEmail(email), actor);
  }
  if (!user) throw fieldError('email', 'errors.noSignInForEmail', { email });
  return user;
}

/** An office admin sets the password of the sign-in with this e-mail (creating it: see signInFor). */
export async function setPassword(app: FastifyInstance, body: { email: string; password: string }, caller: SessionUser, actor: Actor, provision?: Provision) {
  if (!caller.roles.includes('admin') || caller.branchId !== null) throw accessDenied();
  checkNewPassword(body.password, body.email);
  const changed = await app.db.transaction(async (tx) => {
    const user = await signInFor(app, tx, body.email, caller, actor, provision);
    await changePassword(app, tx, user.id, body.password, user.id === caller.id ? caller.sessionId : undefined);
    await tx.delete(loginFailures).where(eq(loginFailures.key, `a:${normalizeEmail(user.email)}`));
    await logAction(tx, actor, { action: 'SetPassword', entity: 'User', entityId: user.id, message: user.email, data: { roles: user.roles, branchId: user.branchId } });
    return user.email;
  });
  forgetInitialPassword(app, changed);
}

/** How long the set-password link of an employee's invitation works (as a payments client's). */
export const STAFF_INVITATION_DAYS = 7;

/** The culture of an account's language when the interface has it (an ISO code such as el), else none. */
function accountCulture(language: string | null | undefined): TCulture | undefined {
  const l = language?.trim().toLowerCase();
  return l === 'el' || l === 'ru' ? l : l === 'en' || l === 'en-uk' ? 'en' : undefined;
}

/**
 * An office admin invites an employee to sign in: the sign-in with this e-mail (made as Set password
 * makes it, with the employee account's role and branch) gets a one-time link to choose its password,
 * mailed in the account's language, else in the office's (the inviting admin's). Only the newest link
 * works. The sign-in, the code and the action-log row are one transaction; the mail goes after.
 * Staff only: a payments client's invitation is the payments module's, to its own host.
 */
export async function sendStaffInvitation(app: FastifyInstance, email: string, caller: SessionUser, actor: Actor, officeCulture: TCulture, provision?: Provision) {
  if (!caller.roles.includes('admin') || caller.branchId !== null) throw accessDenied();
  const code = newToken();
  const { user, language } = await app.db.transaction(async (tx) => {
    const user = await signInFor(app, tx, email, caller, actor, provision, true);
    if (!user.roles.some((r) => r === 'admin' || r === 'employee')) throw fieldError('email', 'invite.notStaff', { email: user.email });
    const [account] = user.accountId === null ? [] : await tx.select({ displayName: accounts.displayName, language: accounts.language }).from(accounts).where(eq(accounts.id, user.accountId)).limit(1);
    // Earlier links (an invitation's or a reset's) stop working: only the newest one sets the password.
    await tx.update(passwordResets).set({ usedOn: new Date() }).where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedOn)));
    await tx.insert(passwordResets).values({ userId: user.id, codeHash: sha256(code), expiresOn: new Date(Date.now() + STAFF_INVITATION_DAYS * 24 * 3600 * 1000) });
    await logAction(tx, actor, { action: 'SendInvitation', entity: 'User', entityId: user.id, message: user.email, data: { accountId: user.accountId, roles: user.roles, branchId: user.branchId } });
    return { user, language: account?.language };
  });
  const base = await linkBase(app);
  // The account's language, else the office's (the inviting admin's); signed by the admin who invites.
  const { mail } = await buildMail(app, {
    to: user.email,
    accountId: user.accountId,
    culture: accountCulture(language),
    fallback: officeCulture,
    agentUserId: caller.id,
    letter: MAIL_LETTERS.invite({ link: resetLink(app, code, normalizeEmail(user.email), base, true), days: STAFF_INVITATION_DAYS, url: base, email: user.email }),
  });
  await app.mailer.send(mail);
  return user.email;
}

/**
 * A signed-in user changes the own password. The current password is checked as a sign-in's is,
 * and a wrong one counts against the same throttle (the account and the client's address), so a
 * session left open or stolen cannot be used to guess it. A right one sets the new password, ends
 * the user's other sessions and keeps this one.
 */
export async function changeOwnPassword(
  app: FastifyInstance,
  body: { currentPassword: string; password: string; confirmPassword: string },
  caller: SessionUser,
  actor: Actor,
  meta: { ip: string },
) {
  if (body.password !== body.confirmPassword) throw fieldError('confirmPassword', 'reset.passwordsShouldMatch');
  checkNewPassword(body.password, caller.email);
  const { maxFailuresPerAccount, maxFailuresPerIp, lockMinutes } = app.config.login;
  const accountKey = `a:${normalizeEmail(caller.email)}`;
  const ipKey = `ip:${meta.ip}`;
  const keys = [
    { key: accountKey, free: maxFailuresPerAccount },
    { key: ipKey, free: maxFailuresPerIp },
  ];
  const wait = await reserveAttempt(app.db, keys, { maxDelaySeconds: lockMinutes * 60, resetAfterSeconds: Math.max(3600, lockMinutes * 240) });
  if (wait !== null) throw tooManyTries(wait);
  const [user] = await app.db.select().from(users).where(eq(users.id, caller.id)).limit(1);
  const checked = await hashLimiter(app).run(() => verifyPassword(body.currentPassword, user?.passwordHash), true);
  if (!checked) {
    for (const k of keys) await refundAttempt(app.db, k.key);
    throw new AppError(429, 'errors.serverBusy');
  }
  if (!user || !checked.value) throw fieldError('currentPassword', 'password.currentIncorrect');
  await refundAttempt(app.db, ipKey);
  await app.db.transaction(async (tx) => {
    await changePassword(app, tx, user.id, body.password, caller.sessionId);
    await tx.delete(loginFailures).where(eq(loginFailures.key, accountKey));
    await logAction(tx, actor, { action: 'ChangePassword', entity: 'User', entityId: user.id, message: user.email });
  });
  forgetInitialPassword(app, user.email);
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
      // Named by the e-mail's local part: records show who made them, and the sign-in's address is not for every reader (0034).
      .values({ email, username: email.split('@')[0] || email, passwordHash: hash, roles: ['admin'], passwordChangedOn: new Date() })
      .returning();
    await logAction(tx, { id: null, name: 'system' }, { action: 'Create', entity: 'User', entityId: u!.id, message: LOG_MESSAGE.firstAdministrator });
    return true;
  });
}
