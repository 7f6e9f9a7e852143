import { eq } from 'drizzle-orm';
import { objects, users } from '../../../db/schema/index.ts';
import { toLocalDateTime } from '../../../lib/dates.ts';
import { OBJECT_PATCHABLE, checkObjectRules } from '../../objects/objects.rules.ts';
import { fieldsOf, objectChanged } from '../../objects/objects.service.ts';
import { publishErrorText } from '../../publishing/publish.rules.ts';
import type { PatchableEntity } from '../field-registry.ts';

/** Object fields editable one at a time: every described field but the system's (OBJECT_FIELDS). */
export const objectEntity: PatchableEntity = {
  name: 'object',
  logEntity: 'Object',
  table: objects,
  columns: { id: objects.id, version: objects.version },
  fields: OBJECT_PATCHABLE,
  async toDto(row, ctx) {
    let modifiedBy: string | null = null;
    if (typeof row.modifiedBy === 'number') {
      const [u] = await ctx.db.select({ username: users.username }).from(users).where(eq(users.id, row.modifiedBy));
      modifiedBy = u?.username ?? null;
    }
    return {
      ...fieldsOf(row),
      publishError: publishErrorText(row.publishError, ctx.t),
      id: row.id,
      version: row.version,
      modifiedOn: toLocalDateTime(row.modifiedOn as Date, ctx.timeZone),
      modifiedBy,
    };
  },
  async afterChange(app, tx, c) {
    await objectChanged(app, tx, { id: c.id, before: c.before, after: c.after, changed: [c.field], actor: c.actor });
  },
  validate(row, field, value) {
    checkObjectRules({ ...row, [field]: value }, new Set([field]));
  },
};
