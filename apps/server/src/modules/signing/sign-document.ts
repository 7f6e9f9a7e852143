import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { SIGN_IMAGE_MAX_SIDE, cultureOf, type TCulture, type TSignBody, type TSignPublic } from '@crm/contract';
import { AppError, badRequest, fieldError } from '../../lib/errors.ts';
import { logAction } from '../../lib/audit.ts';
import { rateLimit } from '../../lib/throttle.ts';
import { toLocalDateTime, zoneOffsetMs } from '../../lib/dates.ts';
import { writeStoredFiles } from '../../storage/pending-files.ts';
import { buildMail } from '../../mail/mail-people.ts';
import type { Mail } from '../../mail/mailer.ts';
import { dateIn } from '../doc-templates/doc-fill.ts';
import { appendPagesIncrementally, renderSealPage } from './sign-seal.ts';
import { SIGN_LOG_ENTITY, fillNow, hashOf, publicView, readStored, requestByToken, sourceState, statusOf, type SignRow } from './sign-requests.service.ts';
import type { T } from '../../lib/i18n.ts';

/** Sign tries per client address an hour (a person signs once; a stream of posts is refused). */
const SIGNS_PER_IP_HOUR = 30;
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);


/** The drawn signature: a real PNG of bounded size, or null for the typed name alone. */
export async function signatureImage(dataUrl: string): Promise<Buffer | null> {
  if (dataUrl === '') return null;
  const png = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  if (png.length < PNG_MAGIC.length || !png.subarray(0, 8).equals(PNG_MAGIC)) throw fieldError('signature', 'signing.signatureInvalid');
  try {
    const meta = await sharp(png, { limitInputPixels: SIGN_IMAGE_MAX_SIDE * SIGN_IMAGE_MAX_SIDE }).metadata();
    if (meta.format !== 'png' || !meta.width || !meta.height || meta.width > SIGN_IMAGE_MAX_SIDE || meta.height > SIGN_IMAGE_MAX_SIDE) throw new Error('size');
    // Drawn again by sharp: what goes into the PDF is a clean PNG, never the bytes as posted.
    return await sharp(png).png().toBuffer();
  } catch {
    throw fieldError('signature', 'signing.signatureInvalid');
  }
}

/** A moment as the signer's record page writes it: 27/11/2026 23:45:12 (Europe/Athens, UTC+02:00). */
function stamp(at: Date, culture: TCulture, timeZone: string) {
  const local = toLocalDateTime(at, timeZone)!;
  const off = zoneOffsetMs(at.getTime(), timeZone) / 60000;
  const sign = off < 0 ? '-' : '+';
  const hhmm = `${String(Math.floor(Math.abs(off) / 60)).padStart(2, '0')}:${String(Math.abs(off) % 60).padStart(2, '0')}`;
  return `${dateIn(culture, local.slice(0, 10))} ${local.slice(11)} (${timeZone}, UTC${sign}${hhmm})`;
}

/** The refusal of a link that can no longer be signed, in the page's terms. */
function refuse(status: ReturnType<typeof statusOf>) {
  if (status === 'voided') return new AppError(409, 'signing.documentChanged');
  if (status === 'revoked') return new AppError(410, 'signing.linkRevoked');
  return new AppError(410, 'signing.linkExpired');
}

/**
 * POST /api/sign/{token}: the signature sealed. The sent bytes read back and checked against their
 * hash, the record page appended to them and the signed copy written to the store, all before any
 * lock; then, under a lock of the request (a second post waits and then finds it signed: one
 * signature, one file) and with the record's version and the fingerprint of what the document prints
 * checked again, the copy stored among the record's files, the request closed, logged; then mailed
 * to the signer and the sender.
 */
export async function signDocument(app: FastifyInstance, req: FastifyRequest, token: string, body: TSignBody & { name: string }): Promise<TSignPublic> {
  const wait = await rateLimit(app.db, `sign:ip:${req.ip}`, SIGNS_PER_IP_HOUR, 3600);
  if (wait !== null) throw new AppError(429, 'errors.tooManyRequestsWait', { minutes: Math.ceil(wait / 60) });
  const first = await requestByToken(app.db, token);
  // What the document prints, made again now (one fill, outside the transaction: it reads on its own connection).
  const fill = await fillNow(app, first);
  const image = await signatureImage(body.signature);
  const ip = req.ip;
  const userAgent = String(req.headers['user-agent'] ?? '').slice(0, 400);
  // Checked before any work: a request signed, revoked, voided or expired is answered at once.
  const before = statusOf(first, (await sourceState(app.db, first.source, first.source_id))?.version ?? null, Date.now(), fill);
  if (before !== 'sent' && before !== 'signed') throw refuse(before);
  let done: { r: SignRow; fileName: string; sealed: Buffer } | null = null;
  if (before === 'sent') {
    // The signed copy made and written to the store before any row is locked: a slow store (S3) or a
    // long document never holds the request or its record (the deal, property or mandate, which staff
    // may be saving) locked. The sent bytes are read back and checked against their hash; the page
    // appended states the moment of signing, which is the one stored.
    const original = await readStored(app, first.pdf_system_name);
    if (!original) {
      // Gone since it was read first (the signer's data erased, the record deleted): the link's answer now.
      const now = await requestByToken(app.db, token);
      const status = statusOf(now, (await sourceState(app.db, now.source, now.source_id))?.version ?? null, Date.now(), fill);
      if (status !== 'sent' && status !== 'signed') throw refuse(status);
      throw new AppError(500, 'errors.internal');
    }
    if (hashOf(original) !== first.pdf_sha256) throw new AppError(500, 'errors.internal');
    const signedOn = new Date();
    const t: T = (key, params) => app.translator.t(first.culture, key, params);
    const page = await renderSealPage({
      culture: first.culture,
      title: t('signing.seal.title'),
      rows: [
        [t('signing.seal.document'), first.document_name],
        [t('signing.seal.signer'), body.name],
        [t('signing.seal.email'), first.signer_email],
        [t('signing.seal.signedOn'), stamp(signedOn, first.culture, app.config.timeZone)],
        [t('signing.seal.ip'), ip],
        [t('signing.seal.device'), userAgent || '—'],
        [t('signing.seal.sha256'), first.pdf_sha256],
        [t('signing.seal.original'), t('signing.seal.originalBytes', { bytes: first.pdf_size })],
        [t('signing.seal.sentBy'), `${first.sent_by_name ?? '—'}, ${stamp(first.sent_on, first.culture, app.config.timeZone)}`],
      ],
      signatureLabel: t('signing.seal.drawn'),
      signature: image,
      noSignatureDrawn: t('signing.seal.typedOnly'),
      notice: t('signing.seal.notice'),
    });
    const sealed = await appendPagesIncrementally(original, page);
    const fileName = first.document_name.replace(/\.pdf$/i, '') + ` — ${t('signing.seal.signedSuffix')}.pdf`;
    // The signed copy's name recorded pending before its file is written; the signature's commit claims
    // it (decisions 104, 109). Signed already meanwhile, or refused under the lock: nothing claims it,
    // and the file is removed.
    const stored = `${randomBytes(16).toString('hex')}.pdf`;
    done = await writeStoredFiles(app, async (files) => {
      await files.put(stored, Readable.from([sealed]));
      // Under a lock of the request (a second post waits and then finds it signed: one signature, one
      // file), with the record's version and the fingerprint of what the document prints checked again.
      return files.transaction(async (tx) => {
        const r = await requestByToken(tx, token, true);
        if (r.signed_on) return null;
        const state = await sourceState(tx, r.source, r.source_id, true);
        const status = statusOf(r, state?.version ?? null, Date.now(), fill);
        if (status !== 'sent') throw refuse(status);
        const next = await tx.execute(sql`select coalesce(max(sort_order), -1) + 1 as n from files where parent_type = ${r.parent_type} and parent_id = ${r.parent_id}`);
        const file = await tx.execute(sql`insert into files (system_name, user_name, mime, size, parent_type, parent_id, type, sort_order, created_by)
          values (${stored}, ${fileName}, 'application/pdf', ${sealed.length}, ${r.parent_type}, ${r.parent_id}, 'document', ${Number((next.rows[0] as { n: number }).n)}, ${r.sent_by}) returning id`);
        const fileId = Number((file.rows[0] as { id: number }).id);
        await files.claim(tx);
        await tx.execute(sql`update sign_requests set signed_on = ${signedOn}, signed_name = ${body.name}, signed_ip = ${ip}, signed_user_agent = ${userAgent}, signed_sha256 = ${hashOf(sealed)}, signed_file_id = ${fileId}, version = version + 1 where id = ${r.id}`);
        const actor = { id: null, name: body.name };
        await logAction(tx, actor, { action: 'Sign', entity: SIGN_LOG_ENTITY, entityId: r.id, message: r.document_name, data: { source: r.source, sourceId: r.source_id, signedName: body.name, ip, userAgent, sha256: r.pdf_sha256, signedSha256: hashOf(sealed), fileId, drawn: image !== null } });
        await logAction(tx, actor, { action: 'Create', entity: 'File', entityId: fileId, message: fileName, data: { systemName: stored, mime: 'application/pdf', size: sealed.length, parentType: r.parent_type, parentId: r.parent_id, signRequestId: r.id } });
        return { r, fileName, sealed };
      });
    });
  }
  if (done) await mailSigned(app, done.r, done.fileName, done.sealed, body.name);
  const after = await requestByToken(app.db, token);
  return publicView(app, after, cultureOf(first.culture));
}

/** The signed copy mailed to the signer (in the document's language) and to the staff member who sent it (in theirs), each with its SHA-256. */
async function mailSigned(app: FastifyInstance, r: SignRow, fileName: string, pdf: Buffer, signedName: string) {
  const attach = (m: Mail): Mail => ({ ...m, attachments: [...(m.attachments ?? []), { filename: fileName, contentType: 'application/pdf', contentBase64: pdf.toString('base64') }] });
  // The fingerprint of the very file attached (and filed), so either side can check the copy they keep; then the document's as read.
  const sealedHash = hashOf(pdf);
  const hashes = (t: T) => [{ note: t('signing.mail.signedCopyHash', { hash: sealedHash }) }, { note: t('signing.mail.documentHash', { hash: r.pdf_sha256, bytes: r.pdf_size }) }];
  const toSigner = await buildMail(app, {
    to: r.signer_email, culture: r.culture, fallback: r.culture, agentUserId: r.sent_by,
    letter: { subject: (t: T) => t('signing.mail.signedSubject', { document: r.document_name }), body: (t: T) => [{ p: t('signing.mail.signedBody', { document: r.document_name }) }, ...hashes(t), { note: t('signing.simpleSignature') }] },
  });
  await app.mailer.send(attach(toSigner.mail));
  if (r.sent_by === null) return;
  const u = (await app.db.execute(sql`select email, language, account_id from users where id = ${r.sent_by} and not disabled`)).rows[0] as { email: string | null; language: string | null; account_id: number | null } | undefined;
  if (!u?.email) return;
  const toAgent = await buildMail(app, {
    to: u.email, accountId: u.account_id, culture: cultureOf(u.language ?? 'en'), fallback: 'en',
    letter: { subject: (t: T) => t('signing.mail.agentSubject', { document: r.document_name, name: signedName }), body: (t: T) => [{ p: t('signing.mail.agentBody', { document: r.document_name, name: signedName, email: r.signer_email }) }, ...hashes(t)] },
  });
  await app.mailer.send(attach(toAgent.mail));
}

/** GET /api/sign/{token}/pdf: the document while it may be signed, the signed copy once signed (while the link lasts). */
export async function signPdf(app: FastifyInstance, token: string): Promise<{ name: string; pdf: Buffer }> {
  const r = await requestByToken(app.db, token);
  const state = await sourceState(app.db, r.source, r.source_id);
  const byVersion = statusOf(r, state?.version ?? null);
  const status = byVersion === 'sent' ? statusOf(r, state?.version ?? null, Date.now(), await fillNow(app, r)) : byVersion;
  if (status === 'signed') {
    if (r.expires_on.getTime() <= Date.now() || r.signed_file_id === null) throw new AppError(410, 'signing.signedCopyGone');
    const f = (await app.db.execute(sql`select system_name, user_name from files where id = ${r.signed_file_id}`)).rows[0] as { system_name: string; user_name: string } | undefined;
    const pdf = f ? await readStored(app, f.system_name) : null;
    if (!f || !pdf) throw new AppError(410, 'signing.signedCopyGone');
    return { name: f.user_name, pdf };
  }
  if (status !== 'sent') throw refuse(status);
  const pdf = await readStored(app, r.pdf_system_name);
  if (!pdf) throw badRequest('errors.notFound');
  return { name: r.document_name, pdf };
}
