import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { cultureOf, type TCulture } from '@crm/contract';
import type { Db, Tx } from '../db/client.ts';
import { accounts, users } from '../db/schema/index.ts';
import { logAction } from '../lib/audit.ts';
import { agencyIdentity, type AppLike } from '../modules/settings/site-settings.service.ts';
import { composeMail, type AgencyIdentity, type MailAgent, type MailBlock } from './compose.ts';
import type { Mail } from './mailer.ts';
import type { T } from '../lib/i18n.ts';
export { MAIL_LETTERS } from './kinds.ts';
import { guessLanguage, type TRecipient } from './greeting.ts';

/**
 * Who a mail is from and to, read from the database: the agency's identity (its site settings),
 * the agent who signs (the full name and phone of the sign-in's account), the account written to
 * (its names and language).
 */

/** The agency's identity from its settings (agencyIdentity): both names, numbers, tax office, web address and the logo's bytes. */
export async function readAgencyIdentity(app: AppLike): Promise<AgencyIdentity> {
  const a = await agencyIdentity(app);
  const logo = a.logo ? await a.logo.read() : undefined;
  return {
    name: a.nameEl ?? a.nameLatin,
    nameLatin: a.nameLatin,
    phone: a.phone,
    email: a.email,
    address: a.address,
    registry: a.licence,
    taxNumber: a.taxNumber,
    taxOffice: a.taxOffice,
    webAddress: a.website,
    logo: logo ? { contentType: a.logo!.contentType, base64: logo.toString('base64') } : null,
  };
}

const fullName = (first: string | null, last: string | null) => [first, last].map((s) => s?.trim()).filter(Boolean).join(' ');

const GREEK_LETTERS = /[\u0370-\u03ff\u1f00-\u1fff]/;

/**
 * The agent who signs a mail sent by this sign-in: the full name of its account (first name
 * first), its first phone and e-mail (the account's, never the sign-in's); null when the sign-in has no account with a name (a bare
 * sign-in name such as "admin" never signs a mail). A mail in another language than Greek is signed
 * with the name in Latin letters where the account holds it (Ελένη Μαυρίδου → Eleni Mavridou).
 */
export async function readMailAgent(db: Db | Tx, userId: number | null | undefined, culture?: TCulture): Promise<MailAgent | null> {
  if (userId == null) return null;
  const [row] = await db
    .select({
      first: accounts.firstName, last: accounts.lastName, display: accounts.displayName, phones: accounts.phones, emails: accounts.emails,
      firstLatin: accounts.firstNameEng, lastLatin: accounts.lastNameEng,
    })
    .from(users)
    .innerJoin(accounts, eq(accounts.id, users.accountId))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) return null;
  const own = fullName(row.first, row.last);
  const latin = culture && culture !== 'el' && GREEK_LETTERS.test(own) && row.firstLatin?.trim() && row.lastLatin?.trim() ? fullName(row.firstLatin, row.lastLatin) : '';
  const name = latin || own || row.display?.trim();
  if (!name) return null;
  return { fullName: name, phone: row.phones.map((p) => p.trim()).find(Boolean) ?? null, email: row.emails.map((e) => e.trim()).find(Boolean) ?? null };
}

/** An account as a mail greets it, with the language its mail is written in. */
export type MailRecipient = TRecipient & { accountId: number; displayName: string | null; language: string | null };

export async function readRecipient(db: Db | Tx, accountId: number | null | undefined): Promise<MailRecipient | null> {
  if (accountId == null) return null;
  const [row] = await db
    .select({ firstName: accounts.firstName, lastName: accounts.lastName, middleName: accounts.middleName, gender: accounts.gender, displayName: accounts.displayName, language: accounts.language })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .limit(1);
  return row ? { accountId, ...row } : null;
}

/** The cultures mail is written in, from a language as accounts keep it (el, ru, en or en-UK); others none. */
export function mailCulture(language: string | null | undefined): TCulture | undefined {
  const l = language?.trim().toLowerCase();
  return l === 'el' || l === 'ru' ? l : l === 'en' || l === 'en-uk' ? 'en' : undefined;
}

/**
 * The language of a mail to an account: its own when set (one the mail is written in; English for
 * another); else the one its name's script suggests (Cyrillic Russian, Greek Greek, else English),
 * which is kept on the account as a suggestion the agent sees and can change.
 */
export async function recipientCulture(db: Db | Tx, r: MailRecipient | null, fallback: TCulture): Promise<TCulture> {
  if (!r) return fallback;
  if (r.language?.trim()) return mailCulture(r.language) ?? cultureOf(r.language.trim());
  const name = [r.firstName, r.lastName, r.middleName].filter(Boolean).join(' ') || r.displayName || '';
  if (!name.trim()) return fallback;
  const guess = guessLanguage(name);
  const [done] = await db
    .update(accounts)
    // A change of the record like any other: its version moves, so a form open on it is told (409) rather than saving over it.
    .set({ language: guess, version: sql`${accounts.version} + 1`, modifiedOn: new Date() })
    .where(and(eq(accounts.id, r.accountId), sql`coalesce(trim(${accounts.language}), '') = ''`))
    .returning({ id: accounts.id });
  if (done) await logAction(db, { id: null, name: null }, { action: 'LanguageSuggested', entity: 'Account', entityId: r.accountId, message: guess, data: { language: { from: null, to: guess } } });
  return guess;
}


/**
 * A mail written the one way (compose.ts) to an address: to the account `accountId` (greeted by its
 * name, in its language, else `culture` when given, else the language its name suggests, else
 * `fallback`), signed by the sign-in `agentUserId`'s person and the agency.
 */
export async function buildMail(
  app: FastifyInstance,
  o: { to: string; accountId?: number | null; culture?: TCulture; fallback: TCulture; agentUserId?: number | null; letter: { subject: (t: T) => string; body: (t: T) => MailBlock[] }; db?: Db | Tx; agency?: AgencyIdentity },
): Promise<{ mail: Mail; culture: TCulture }> {
  const db = o.db ?? app.db;
  const recipient = await readRecipient(db, o.accountId);
  const culture = o.culture ?? (await recipientCulture(db, recipient, o.fallback));
  const t: T = (key, params) => app.translator.t(culture, key, params);
  const [agency, agent] = await Promise.all([o.agency ?? readAgencyIdentity(app), readMailAgent(db, o.agentUserId, culture)]);
  return { mail: composeMail({ to: o.to, culture, t, agency, agent, recipient, subject: o.letter.subject(t), body: o.letter.body(t) }), culture };
}
