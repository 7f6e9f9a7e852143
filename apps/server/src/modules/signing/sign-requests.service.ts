import { Readable } from 'node:stream';
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { LinkKind, SIGN_LINK_DAYS, type TCulture, type TDocSource, type TSignList, type TSignRequest, type TSignSend, type TSignSent, type TSignStatus } from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { AppError, conflict, notFound, requireVersion } from '../../lib/errors.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { newToken, sha256 } from '../../lib/passwords.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { writeStoredFiles } from '../../storage/pending-files.ts';
import { buildMail } from '../../mail/mail-people.ts';
import { agencyIdentity, linkBase } from '../settings/site-settings.service.ts';
import { makeDocument } from '../doc-templates/doc-templates.routes.ts';
import { fillDocument } from '../doc-templates/doc-fill.ts';
import { signerAccount, signersOf } from './sign-people.ts';
import type { T } from '../../lib/i18n.ts';

/**
 * Documents sent for signature by link (issue 47, decision 086). A request keeps the exact PDF the
 * signer is shown and its SHA-256, the version of the record it was made from and the fingerprint of
 * what the document prints (a change of either voids the link), and the link's token as its SHA-256 only.
 */

export type Caller = { user: SessionUser; actor: Actor };
export type SignRow = {
  id: number; source: TDocSource; source_id: number; source_version: number; parent_type: number; parent_id: number; culture: TCulture;
  signer_name: string; signer_email: string; document_name: string; pdf_system_name: string; pdf_size: number; pdf_sha256: string;
  sent_on: Date; sent_by: number | null; sent_by_name: string | null; expires_on: Date; revoked_on: Date | null; revoked_by_name: string | null;
  signed_on: Date | null; signed_name: string | null; signed_ip: string | null; signed_user_agent: string | null; signed_sha256: string | null; signed_file_id: number | null; signer_account_id?: number | null; version: number; token_hash: string; fill_sha256: string | null; signed_system_name?: string | null; signed_user_name?: string | null;
};

export const SIGN_LOG_ENTITY = 'SignRequest';
export const tokenHash = (token: string) => sha256(token).toString('hex');
export const signPath = (token: string) => `/Sign/${token}`;
export const hashOf = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The record a document comes from: its version now (null: deleted), and where its signed copy is filed. */
export async function sourceState(db: Db | Tx, source: TDocSource, id: number, lock = false): Promise<{ version: number; parentType: number; parentId: number } | null> {
  const forShare = lock ? sql` for share` : sql``;
  const q =
    source === 'mandate'
      ? sql`select version, object_id as parent from object_mandates where id = ${id}${forShare}`
      : source === 'offer'
        ? sql`select version, id as parent from deals where id = ${id}${forShare}`
        : sql`select version, id as parent from objects where id = ${id}${forShare}`;
  const row = (await db.execute(q)).rows[0] as { version: number; parent: number } | undefined;
  if (!row) return null;
  // The signed mandate goes among its property's files (where the agents look for it); the offer among the deal's.
  const parentType = source === 'offer' ? LinkKind.Deal : LinkKind.Object;
  return { version: Number(row.version), parentType, parentId: Number(row.parent) };
}

/**
 * The state of a request now: signed and revoked stay; a changed or deleted record voids it, and so
 * does a change of what the document prints (`fill`: its fingerprint now, when the caller made it;
 * undefined: not checked; a request sent before 0093 has none and is checked by version only); then time.
 */
export function statusOf(r: SignRow, currentVersion: number | null, now = Date.now(), fill?: string | null): TSignStatus {
  if (r.signed_on) return 'signed';
  if (r.revoked_on) return 'revoked';
  if (currentVersion === null || currentVersion !== Number(r.source_version)) return 'voided';
  if (fill !== undefined && r.fill_sha256 && fill !== r.fill_sha256) return 'voided';
  if (r.expires_on.getTime() <= now) return 'expired';
  return 'sent';
}

/**
 * The fingerprint of the request's document made again now (one fill, as at sending: same record,
 * language and sender), or undefined when there is nothing to compare (signed, revoked, no fingerprint
 * kept); null when the record is gone.
 */
export async function fillNow(app: FastifyInstance, r: SignRow): Promise<string | null | undefined> {
  if (r.signed_on || r.revoked_on || !r.fill_sha256) return undefined;
  try {
    return (await fillDocument(app, r.source, r.source_id, r.culture, r.sent_by ?? 0)).fingerprint;
  } catch (e) {
    if (e instanceof AppError && e.status === 404) return null;
    throw e;
  }
}

function toRequest(r: SignRow, status: TSignStatus, tz: string): TSignRequest {
  return {
    id: r.id, source: r.source, sourceId: r.source_id, status, signerName: r.signer_name, signerEmail: r.signer_email, culture: r.culture,
    documentName: r.document_name, sha256: r.pdf_sha256, sentOn: toLocalDateTime(r.sent_on, tz)!, sentBy: r.sent_by_name,
    expiresOn: toLocalDateTime(r.expires_on, tz)!, revokedOn: toLocalDateTime(r.revoked_on, tz), signedOn: toLocalDateTime(r.signed_on, tz),
    signedName: r.signed_name, signedFileId: r.signed_file_id,
    signedFile: r.signed_system_name && r.signed_user_name ? { systemName: r.signed_system_name, userName: r.signed_user_name } : null,
    version: r.version,
  };
}

const DATES = ['sent_on', 'expires_on', 'revoked_on', 'signed_on'] as const;
/** Rows as the raw driver gives them (timestamps as text) made into SignRow. */
const rowsOf = (res: { rows: unknown[] }) =>
  (res.rows as Record<string, unknown>[]).map((r) => {
    const out = { ...r } as Record<string, unknown>;
    for (const k of DATES) out[k] = r[k] === null || r[k] === undefined ? null : new Date(r[k] as string);
    return out as SignRow;
  });

/**
 * GET /api/SignRequest?source=&id=(&dealId=): the record's requests, newest first, with their status now, and who may sign it;
 * a property's handover protocols asked for from a deal's page: that deal's only (not those of the deals before it).
 */
export async function listRequests(app: FastifyInstance, source: TDocSource, id: number, dealId?: number): Promise<TSignList> {
  const state = await sourceState(app.db, source, id);
  if (!state) throw notFound();
  const rows = rowsOf(await app.db.execute(sql`select r.*, f.system_name as signed_system_name, f.user_name as signed_user_name from sign_requests r left join files f on f.id = r.signed_file_id
    where r.source = ${source} and r.source_id = ${id}${source === 'handover' && dealId != null ? sql` and r.deal_id = ${dealId}` : sql``}
    order by r.sent_on desc, r.id desc limit 100`));
  // The fingerprint made once per language and sender among the links still open (most often one fill, not one a row).
  const fills = new Map<string, Promise<string | null | undefined>>();
  const statuses = await Promise.all(
    rows.map(async (r) => {
      const byVersion = statusOf(r, state.version);
      if (byVersion !== 'sent' || !r.fill_sha256) return byVersion;
      const key = `${r.culture}:${r.sent_by ?? 0}`;
      if (!fills.has(key)) fills.set(key, fillNow(app, r));
      return statusOf(r, state.version, Date.now(), await fills.get(key));
    }),
  );
  const signers = await signersOf(app.db, source, id, app.config.timeZone, dealId);
  const first = signers[0];
  return { items: rows.map((r, i) => toRequest(r, statuses[i]!, app.config.timeZone)), signer: first ? { name: first.name, email: first.email } : null, signers };
}

/**
 * POST /api/SignRequest/send: the document made now in the chosen language, its bytes stored as they
 * are and hashed, a fresh 256-bit link (kept hashed) good for SIGN_LINK_DAYS, mailed to the signer
 * in the document's language once the request is committed.
 */
export async function sendForSignature(app: FastifyInstance, caller: Caller, body: TSignSend & { name: string; email: string }, readerCulture: TCulture): Promise<TSignSent> {
  const state = await sourceState(app.db, body.source, body.id);
  if (!state) throw notFound();
  const { name, pdf, fingerprint } = await makeDocument(app, body.source, body.id, body.culture, caller.user.id);
  // The person the link goes to, when the e-mail is a party's (or one account's): their data export and erasure find it.
  // From a deal's page, a handover protocol is that deal's (signersOf refuses a deal of another property).
  const dealId = body.source === 'handover' ? (body.dealId ?? null) : null;
  const accountId = await signerAccount(app.db, await signersOf(app.db, body.source, body.id, app.config.timeZone, dealId ?? undefined), body.email);
  const systemName = `${randomBytes(16).toString('hex')}.pdf`;
  const token = newToken();
  const url = `${await linkBase(app)}${signPath(token)}`;
  const expiresOn = new Date(Date.now() + SIGN_LINK_DAYS * 24 * 3600 * 1000);
  // The PDF named pending before it is written, claimed by the request's commit (decisions 104, 109).
  const row = await writeStoredFiles(app, async (stored) => {
    await stored.put(systemName, Readable.from([pdf]));
    return stored.transaction(async (tx) => {
      // The version the document was made from, read under a lock: a change committed meanwhile voids it at once.
      const now = await sourceState(tx, body.source, body.id, true);
      if (!now) throw notFound();
      const [r] = rowsOf(await tx.execute(sql`insert into sign_requests (source, source_id, deal_id, source_version, parent_type, parent_id, culture, signer_name, signer_email, signer_account_id, token_hash, document_name, pdf_system_name, pdf_size, pdf_sha256, fill_sha256, sent_by, sent_by_name, expires_on)
        values (${body.source}, ${body.id}, ${dealId}, ${state.version}, ${state.parentType}, ${state.parentId}, ${body.culture}, ${body.name}, ${body.email}, ${accountId}, ${tokenHash(token)}, ${name}, ${systemName}, ${pdf.length}, ${hashOf(pdf)}, ${fingerprint}, ${caller.user.id}, ${caller.actor.name}, ${expiresOn}) returning *`));
      await logAction(tx, caller.actor, {
        action: 'SendForSignature', entity: SIGN_LOG_ENTITY, entityId: r!.id, message: `${name} → ${body.email}`,
        data: { source: body.source, sourceId: body.id, sourceVersion: state.version, signerName: body.name, signerEmail: body.email, culture: body.culture, sha256: r!.pdf_sha256, linkId: r!.token_hash.slice(0, 12) },
      });
      await stored.claim(tx);
      return r!;
    });
  });
  const { mail } = await buildMail(app, {
    to: body.email, culture: body.culture, fallback: body.culture, agentUserId: caller.user.id,
    letter: {
      subject: (t: T) => t('signing.mail.requestSubject', { document: name }),
      body: (t: T) => [{ p: t('signing.mail.requestBody', { document: name }) }, { link: url, label: t('signing.mail.requestButton') }, { note: t('signing.mail.validity', { days: SIGN_LINK_DAYS, count: SIGN_LINK_DAYS }) }, { note: t('signing.simpleSignature') }],
    },
  });
  await app.mailer.send(mail);
  const t: T = (key, params) => app.translator.t(readerCulture, key, params);
  return { request: toRequest(row, 'sent', app.config.timeZone), url, message: t('signing.sent', { email: body.email }) };
}

/** POST /api/SignRequest/revoke: the link stops working at once; a signed request stays signed. */
export async function revokeRequest(app: FastifyInstance, caller: Caller, id: number, version: number | null | undefined): Promise<TSignRequest> {
  const expected = requireVersion(version);
  return app.db.transaction(async (tx) => {
    const [r] = rowsOf(await tx.execute(sql`select * from sign_requests where id = ${id} for update`));
    if (!r) throw notFound();
    const state = await sourceState(tx, r.source, r.source_id);
    if (r.version !== expected) throw conflict(toRequest(r, statusOf(r, state?.version ?? null), app.config.timeZone));
    if (r.signed_on) throw new AppError(409, 'signing.alreadySigned');
    if (r.revoked_on) return toRequest(r, 'revoked', app.config.timeZone);
    const [u] = rowsOf(await tx.execute(sql`update sign_requests set revoked_on = now(), revoked_by_name = ${caller.actor.name}, version = version + 1 where id = ${id} returning *`));
    await logAction(tx, caller.actor, { action: 'RevokeSignature', entity: SIGN_LOG_ENTITY, entityId: id, message: r.document_name, data: { source: r.source, sourceId: r.source_id, signerEmail: r.signer_email } });
    return toRequest(u!, statusOf(u!, state?.version ?? null), app.config.timeZone);
  });
}

/** The request a token names, or a 404 (nothing else is said of an unknown link). */
export async function requestByToken(db: Db | Tx, token: string, lock = false): Promise<SignRow> {
  const [r] = rowsOf(await db.execute(sql`select * from sign_requests where token_hash = ${tokenHash(token)}${lock ? sql` for update` : sql``}`));
  if (!r) throw new AppError(404, 'signing.linkInvalid');
  return r;
}

/** The stored bytes of a file of the storage, whole. */
export async function readStored(app: FastifyInstance, name: string): Promise<Buffer | null> {
  const stream = await getFileStorage(app.config.dataDir).get(name);
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}

/** What the signer's page is told of its request. */
export async function publicView(app: FastifyInstance, r: SignRow, culture: TCulture) {
  const state = await sourceState(app.db, r.source, r.source_id);
  const status = statusOf(r, state?.version ?? null, Date.now(), state && statusOf(r, state.version) === 'sent' ? await fillNow(app, r) : undefined);
  const agency = await agencyIdentity(app);
  const agencyName = agency.nameIn(culture, app.translator.t(culture, 'publishing.site.name'));
  const live = r.expires_on.getTime() > Date.now();
  return {
    status, language: r.culture, documentName: r.document_name, sha256: r.pdf_sha256, signerName: r.signer_name, agencyName, agencyLogo: agency.logoPath,
    expiresOn: toLocalDateTime(r.expires_on, app.config.timeZone)!, signedOn: toLocalDateTime(r.signed_on, app.config.timeZone),
    pdfAvailable: status === 'sent' || (status === 'signed' && live && r.signed_file_id !== null),
  };
}
