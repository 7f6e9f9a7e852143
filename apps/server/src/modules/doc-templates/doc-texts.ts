import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import {
  CULTURES,
  DOC_PLACEHOLDERS,
  DOC_TEMPLATE_PARTS,
  DOC_TEMPLATES,
  isMailTemplate,
  placeholdersIn,
  type TCulture,
  type TDocTemplateKind,
  type TDocTemplateListAnswer,
  type TDocTemplateText,
  type ZDocTemplateEdit,
} from '@crm/contract';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { AppError, conflict, requireVersion } from '../../lib/errors.ts';
import { toLocalDateTime } from '../../lib/dates.ts';

/** The action log's entity of a template's texts (its data names the template and the language). */
export const DOC_TEMPLATE_LOG_ENTITY = 'DocTemplate';

type Row = { kind: string; culture: string; title: string; body: string; signatures: string; modified_on: string; modified_by_name: string | null; version: number };

// A mail text has no signature blocks (decision 089): the mailbox's signature goes under the mail.
const defaultText = (app: FastifyInstance, kind: TDocTemplateKind, culture: TCulture, part: string) =>
  isMailTemplate(kind) && part === 'signatures' ? '' : app.translator.t(culture, `doctemplates.default.${kind}.${part}`);

/**
 * The texts of a template: the agency's own, or the defaults when it saved none or reset them (a row
 * with an empty title: kept so its version goes on counting, and a form opened before a reset and a
 * new save is still told it is stale).
 */
function toText(app: FastifyInstance, kind: TDocTemplateKind, culture: TCulture, r: Row | undefined): TDocTemplateText {
  if (!r || r.title === '') {
    const [title, body, signatures] = DOC_TEMPLATE_PARTS.map((p) => defaultText(app, kind, culture, p)) as [string, string, string];
    return { kind, culture, title, body, signatures, edited: false, modifiedOn: null, modifiedBy: null, version: r ? Number(r.version) : 0 };
  }
  return {
    kind,
    culture,
    title: r.title,
    body: r.body,
    signatures: r.signatures,
    edited: true,
    modifiedOn: toLocalDateTime(new Date(r.modified_on), app.config.timeZone),
    modifiedBy: r.modified_by_name,
    version: Number(r.version),
  };
}

async function readRows(db: Db | Tx, where?: { kind: TDocTemplateKind; culture: TCulture }): Promise<Row[]> {
  const res = await db.execute(sql`select t.*, coalesce(a.display_name, u.username) as modified_by_name from doc_templates t
    left join users u on u.id = t.modified_by left join accounts a on a.id = u.account_id
    ${where ? sql`where t.kind = ${where.kind} and t.culture = ${where.culture}` : sql``}`);
  return res.rows as Row[];
}

/** A template's texts in a language: the agency's own when it saved some, else the default. */
export async function templateTexts(app: FastifyInstance, kind: TDocTemplateKind, culture: TCulture, db: Db | Tx = app.db): Promise<TDocTemplateText> {
  const [r] = await readRows(db, { kind, culture });
  return toText(app, kind, culture, r);
}

/** GET /api/DocTemplate: every template in every language, and the placeholders each may hold. */
export async function listTemplates(app: FastifyInstance): Promise<TDocTemplateListAnswer> {
  const rows = await readRows(app.db);
  const items = DOC_TEMPLATES.flatMap((kind) => CULTURES.map((culture) => toText(app, kind, culture, rows.find((r) => r.kind === kind && r.culture === culture))));
  return { items, placeholders: Object.fromEntries(DOC_TEMPLATES.map((k) => [k, [...DOC_PLACEHOLDERS[k]]])) };
}

/** Placeholders a template may not hold, refused at the part that has them, named in the message. */
function checkPlaceholders(kind: TDocTemplateKind, body: Pick<Body, 'title' | 'body' | 'signatures'>) {
  const allowed = new Set(DOC_PLACEHOLDERS[kind]);
  const errors: Record<string, { code: string; params?: Record<string, string | number> }[]> = {};
  for (const part of DOC_TEMPLATE_PARTS) {
    const unknown = placeholdersIn(body[part]).filter((p) => !allowed.has(p));
    if (unknown.length) errors[part] = [{ code: 'doctemplates.unknownPlaceholder', params: { names: unknown.map((p) => `{${p}}`).join(', ') } }];
  }
  if (Object.keys(errors).length) throw new AppError(400, 'errors.validation', {}, errors);
}

type Body = z.output<typeof ZDocTemplateEdit>;
const norm = (s: string) => s.replace(/\r\n?/g, '\n').trim();

/**
 * POST /api/DocTemplate/update: a template's texts in one language, based on its version (0: the
 * default, nothing stored yet). Unknown placeholders are refused and nothing is stored; a stale
 * version is a 409 with the current texts. One action-log row.
 */
export async function saveTemplate(app: FastifyInstance, actor: Actor, userId: number, body: Body): Promise<TDocTemplateText> {
  const version = requireVersion(body.version);
  const texts = { title: norm(body.title), body: norm(body.body), signatures: isMailTemplate(body.kind) ? '' : norm(body.signatures) };
  checkPlaceholders(body.kind, texts);
  return app.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('doc_templates'), hashtext(${`${body.kind}/${body.culture}`}))`);
    const current = await templateTexts(app, body.kind, body.culture, tx);
    if (current.version !== version) throw conflict(current);
    if (version === 0) {
      await tx.execute(sql`insert into doc_templates (kind, culture, title, body, signatures, modified_by) values (${body.kind}, ${body.culture}, ${texts.title}, ${texts.body}, ${texts.signatures}, ${userId})`);
    } else {
      await tx.execute(sql`update doc_templates set title = ${texts.title}, body = ${texts.body}, signatures = ${texts.signatures}, modified_on = now(), modified_by = ${userId}, version = version + 1
        where kind = ${body.kind} and culture = ${body.culture}`);
    }
    const changed = DOC_TEMPLATE_PARTS.filter((p) => current[p] !== texts[p]);
    await logAction(tx, actor, { action: version === 0 ? 'Create' : 'Update', entity: DOC_TEMPLATE_LOG_ENTITY, message: `${body.kind} (${body.culture})`, data: { kind: body.kind, culture: body.culture, changed, ...texts } });
    return templateTexts(app, body.kind, body.culture, tx);
  });
}

/** POST /api/DocTemplate/reset: the default texts again (the agency's own dropped), based on the version; logged. */
export async function resetTemplate(app: FastifyInstance, actor: Actor, body: { kind: TDocTemplateKind; culture: TCulture; version?: number | null }): Promise<TDocTemplateText> {
  const version = requireVersion(body.version);
  return app.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('doc_templates'), hashtext(${`${body.kind}/${body.culture}`}))`);
    const current = await templateTexts(app, body.kind, body.culture, tx);
    if (current.version !== version) throw conflict(current);
    if (current.edited) {
      await tx.execute(sql`update doc_templates set title = '', body = '', signatures = '', modified_on = now(), version = version + 1
        where kind = ${body.kind} and culture = ${body.culture}`);
      await logAction(tx, actor, { action: 'Delete', entity: DOC_TEMPLATE_LOG_ENTITY, message: `${body.kind} (${body.culture})`, data: { kind: body.kind, culture: body.culture, reset: true } });
    }
    return templateTexts(app, body.kind, body.culture, tx);
  });
}
