import { paymentsLinkBase } from '../settings/site-settings.service.ts';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { cultureOf, type TLanguage, type TRole } from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { accounts, passwordResets, users } from '../../db/schema/index.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { newToken, sha256 } from '../../lib/passwords.ts';
import { findUserByEmail, normalizeEmail } from '../auth/auth.service.ts';
import { MAIL_LETTERS, buildMail } from '../../mail/mail-people.ts';
import { containsPattern } from '../accounts/accounts.sql.ts';

/** The interface language a client's sign-in starts with: the account's language, as the app names it. */
const SIGN_IN_LANGUAGE: Record<'en' | 'el' | 'ru', TLanguage> = { en: 'en-UK', el: 'el', ru: 'ru' };
export const signInLanguage = (accountLanguage: string | null): TLanguage | null => (accountLanguage?.trim() ? SIGN_IN_LANGUAGE[cultureOf(accountLanguage.trim().toLowerCase())] : null);

/** How long the set-password link of an invitation works. */
export const INVITATION_DAYS = 7;

type User = typeof users.$inferSelect;

/** The account's name, e-mails, language and payments flag. */
export async function paymentsAccount(db: Db | Tx, accountId: number) {
  const [a] = await db
    .select({ id: accounts.id, displayName: accounts.displayName, emails: accounts.emails, language: accounts.language, isEmploye: accounts.isEmploye, hasTransactions: accounts.hasTransactions })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .limit(1);
  return a;
}

/** The client's sign-in of an account: the one that belongs to it (a clientPayments one first). */
async function signInOfAccount(tx: Tx, accountId: number): Promise<User | undefined> {
  const [u] = await tx
    .select()
    .from(users)
    .where(eq(users.accountId, accountId))
    .orderBy(sql`('clientPayments' = any(${users.roles})) desc`, users.id)
    .limit(1);
  return u;
}

/** The address mails for a payments client go to: its sign-in's e-mail, else the account's first. */
export async function clientAddress(db: Db | Tx, accountId: number): Promise<string | undefined> {
  const [u] = await db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.accountId, accountId), eq(users.disabled, false), sql`'clientPayments' = any(${users.roles})`))
    .limit(1);
  if (u) return u.email;
  const a = await paymentsAccount(db, accountId);
  return a?.emails.map((e) => e.trim()).find(Boolean);
}

/**
 * Gives the account a clientPayments sign-in (or adds the role to the one it has, or brings an ended
 * one back), in the caller's transaction. A sign-in with the account's e-mail that belongs to somebody
 * else is refused: one e-mail, one person.
 */
export async function ensureClientSignIn(tx: Tx, accountId: number, actor: Actor, withEmail?: string): Promise<User> {
  const a = await paymentsAccount(tx, accountId);
  if (!a) throw notFound();
  let user = await signInOfAccount(tx, accountId);
  if (!user) {
    const email = withEmail ?? a.emails.map((e) => e.trim()).find(Boolean);
    if (!email) throw new AppError(400, 'paymentsClient.invite.noEmail');
    const taken = await findUserByEmail(tx, email);
    if (taken) throw new AppError(409, 'paymentsClient.invite.emailTaken', { email });
    [user] = await tx
      .insert(users)
      .values({ email, username: a.displayName || email, roles: ['clientPayments'], accountId, language: signInLanguage(a.language) })
      .returning();
    await logAction(tx, actor, { action: 'Create', entity: 'User', entityId: user!.id, message: email, data: { accountId, roles: ['clientPayments'] } });
    return user!;
  }
  const roles = user.roles as TRole[];
  if (user.disabled || !roles.includes('clientPayments')) {
    // An ended sign-in comes back as the client's only (never with the staff roles it had).
    const next: TRole[] = user.disabled ? ['clientPayments'] : [...roles, 'clientPayments'];
    [user] = await tx
      .update(users)
      .set({ disabled: false, roles: next, branchId: user.disabled ? null : user.branchId, modifiedOn: new Date() })
      .where(eq(users.id, user.id))
      .returning();
    await logAction(tx, actor, { action: 'Update', entity: 'User', entityId: user!.id, message: user!.email, data: { accountId, roles: next } });
  }
  return user!;
}

/** The set-password page of an invitation: on the payments host (from the configuration, never the request). */
export function invitationLink(base: string, code: string, email: string) {
  return `${base}/ResetPassword?code=${encodeURIComponent(code)}&email=${encodeURIComponent(email)}&invite=1`;
}

/**
 * Send email invitation: the account gets a clientPayments sign-in and a mail, in the account's
 * language, with a link to choose its password (a single-use code, stored hashed, valid for
 * INVITATION_DAYS). The sign-in, the code and the action-log row are one transaction; the mail
 * goes once they are committed.
 */
export async function sendInvitation(app: FastifyInstance, accountId: number, actor: Actor, senderCulture: string) {
  const code = newToken();
  const { user, account } = await app.db.transaction(async (tx) => {
    const user = await ensureClientSignIn(tx, accountId, actor);
    const account = (await paymentsAccount(tx, accountId))!;
    // Earlier invitation links stop working: only the newest one sets the password.
    await tx
      .update(passwordResets)
      .set({ usedOn: new Date() })
      .where(and(eq(passwordResets.userId, user.id), sql`${passwordResets.usedOn} is null`, ne(passwordResets.codeHash, sha256(code))));
    await tx.insert(passwordResets).values({ userId: user.id, codeHash: sha256(code), expiresOn: new Date(Date.now() + INVITATION_DAYS * 24 * 3600 * 1000) });
    await logAction(tx, actor, { action: 'SendInvitation', entity: 'Account', entityId: accountId, message: user.email, data: { userId: user.id, email: user.email } });
    return { user, account };
  });
  // The account's language, else the one its sign-in has, else the one its name suggests; signed by the sender.
  const base = await paymentsLinkBase(app);
  const { mail } = await buildMail(app, {
    to: user.email,
    accountId,
    culture: account.language?.trim() ? cultureOf(account.language.trim()) : user.language ? cultureOf(user.language) : undefined,
    fallback: cultureOf(senderCulture),
    agentUserId: actor.id,
    letter: MAIL_LETTERS.paymentsInvite({ link: invitationLink(base, code, normalizeEmail(user.email)), days: INVITATION_DAYS, url: base, email: user.email }),
  });
  await app.mailer.send(mail);
  return user.email;
}

/**
 * Set password for a payments account without a sign-in yet: the account (not an employee's: those
 * get theirs from the accounts module) whose e-mail this is, if it keeps payments.
 */
export async function findPaymentsAccountByEmail(db: Db | Tx, email: string) {
  const wanted = normalizeEmail(email);
  if (!wanted) return undefined;
  const [a] = await db
    .select({ id: accounts.id, displayName: accounts.displayName, language: accounts.language })
    .from(accounts)
    .where(
      and(
        eq(accounts.isEmploye, false),
        // The trigram index narrows the candidates; the exact test is on the array.
        sql`${accounts.searchText} like ${containsPattern(wanted)}`,
        sql`(${accounts.hasTransactions} or exists (select 1 from users u where u.account_id = ${accounts.id} and 'clientPayments' = any(u.roles)))`,
        sql`exists (select 1 from unnest(${accounts.emails}) e where lower(btrim(e)) = ${wanted})`,
      ),
    )
    .orderBy(accounts.id)
    .limit(1);
  return a;
}
