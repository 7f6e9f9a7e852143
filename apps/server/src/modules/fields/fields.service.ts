import type { FastifyInstance, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type { TEditRequestAnswer, TFieldPatch, TFieldPatchAnswer } from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { AppError, badRequest, conflict, fieldError, notFound, requireVersion } from '../../lib/errors.ts';
import { logAction } from '../../lib/audit.ts';
import { getPatchableEntity, type FieldContext, type PatchableEntity, type PatchableField } from './field-registry.ts';
import { normalizeValue, readValue, sameValue, writeValues } from './field-values.ts';

type Row = Record<string, unknown>;

function contextOf(app: FastifyInstance, req: FastifyRequest, db: Db | Tx): FieldContext {
  return { db, culture: req.culture, timeZone: app.config.timeZone, user: req.user, t: (key, params) => app.translator.t(req.culture, key, params) };
}

function resolve(entityName: string, field: string): { entity: PatchableEntity; def: PatchableField } {
  const entity = getPatchableEntity(entityName);
  if (!entity) throw badRequest('fields.unknownEntity', { entity: entityName });
  const def = Object.hasOwn(entity.fields, field) ? entity.fields[field] : undefined;
  if (!def) throw new AppError(400, 'fields.unknownField', { field }, { [field]: [{ code: 'fields.unknownField', params: { field } }] });
  return { entity, def };
}

async function loadRow(db: Db | Tx, entity: PatchableEntity, id: number, lock: boolean): Promise<Row | undefined> {
  const q = db
    .select()
    .from(entity.table as never)
    .where(eq(entity.columns.id, id));
  const rows = (await (lock ? q.for('update') : q)) as Row[];
  return rows[0];
}

/** The version in an If-Match header ("3", "\"3\"" or W/"3"), when one is given. */
export function parseIfMatch(header: string | string[] | undefined): number | undefined {
  const h = Array.isArray(header) ? header[0] : header;
  if (!h || h.trim() === '*') return undefined;
  const m = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(h);
  if (!m) throw badRequest('fields.badIfMatch');
  return Number(m[1]);
}

/** GET /api/{entity}/editRequestSelectList?id=&fieldName= */
export async function getEditRequest(app: FastifyInstance, req: FastifyRequest, entityName: string, id: number, field: string): Promise<TEditRequestAnswer> {
  const { entity, def } = resolve(entityName, field);
  const ctx = contextOf(app, req, app.db);
  const row = await loadRow(app.db, entity, id, false);
  if (!row) throw notFound();
  await entity.authorize?.(row, field, ctx);
  const selectList = def.options ? await def.options(ctx, row) : [];
  const value = readValue(field, def, row);
  const answer: TEditRequestAnswer = {
    value,
    type: def.type,
    selectList,
    dtoFieldName: def.dtoFieldName ?? field,
    version: typeof row.version === 'number' ? row.version : undefined,
  };
  // A set of values (flags by name, a multi-select's numbers): joined, as an array, and as the texts of its options.
  if (def.type === 'flag-enum' || def.type === 'multi-select') {
    const set = value as (string | number)[];
    const asValue = def.type === 'flag-enum' ? String : Number;
    answer.value = set.join(',');
    answer.valueArray = set as string[] | number[];
    answer.selectListText = selectList
      .filter((o) => set.includes(asValue(o.value)))
      .map((o) => o.text)
      .join(', ');
  }
  return answer;
}

/**
 * PATCH /api/{entity}/patch/{id}: one replace operation. A stale version is answered 409 with the
 * current record; an unchanged value writes nothing; a change bumps the version, stamps the
 * record and writes the action log, all in one transaction.
 */
export async function patchField(
  app: FastifyInstance,
  req: FastifyRequest,
  entityName: string,
  id: number,
  patch: TFieldPatch,
  expectedVersion: number | undefined,
): Promise<TFieldPatchAnswer> {
  const op = patch[0]!;
  const field = op.path.slice(1);
  const { entity, def } = resolve(entityName, field);
  if (!Object.hasOwn(op, 'value') || op.value === undefined) throw fieldError(field, 'validation.required');

  return app.db.transaction(async (tx) => {
    const ctx = contextOf(app, req, tx);
    const row = await loadRow(tx, entity, id, true);
    if (!row) throw notFound();
    await entity.authorize?.(row, field, ctx);
    if (row.version !== requireVersion(expectedVersion)) throw conflict(await entity.toDto(row, ctx));
    const value = await normalizeValue(field, def, op.value, ctx, row);
    const current = readValue(field, def, row);
    if (sameValue(current, value)) return { dto: await entity.toDto(row, ctx), viewUpdated: false };
    await entity.validate?.(row, field, value, ctx);

    const [updated] = (await tx
      .update(entity.table)
      .set({ ...writeValues(field, def, value), version: (row.version as number) + 1, modifiedOn: new Date(), modifiedBy: req.actor.id } as never)
      .where(eq(entity.columns.id, id))
      .returning()) as Row[];
    await logAction(tx, req.actor, {
      action: 'Update',
      entity: entity.logEntity,
      entityId: id,
      message: field,
      data: { field, from: current, to: value },
    });
    if (entity.afterChange) {
      await entity.afterChange(app, tx, { id, before: row, after: updated!, field, actor: req.actor });
      const again = await loadRow(tx, entity, id, false);
      return { dto: await entity.toDto(again ?? updated!, ctx), viewUpdated: true };
    }
    return { dto: await entity.toDto(updated!, ctx), viewUpdated: true };
  });
}
