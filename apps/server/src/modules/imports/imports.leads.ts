import { and, eq, inArray } from 'drizzle-orm';
import { LEAD_PRIORITIES, LEAD_RANGES, LEAD_STAGE_NEW, OBJECT_FEATURES, OBJECT_SUBTYPES } from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { leads } from '../../db/schema/index.ts';
import type { ImportField } from './imports.fields.ts';
import type { ReadRow, Row } from './imports.cells.ts';

/**
 * A lead's rows of an imported spreadsheet: the client is read as an owner's row reads its person
 * (imports.service.ts); here the lead's own rules and its key against a second import. A lead is
 * the same as one already stored when its client is the same account and every lead cell the row
 * fills holds the same value (an empty cell is not compared: the stored lead may have taken its
 * default there): that row is left out, so a file imported again (or one that repeats earlier
 * rows) makes no second lead. Two rows with the same values in one file are an error at the second.
 */

type Translate = (key: string, params?: Record<string, string | number>) => string;
type Column = { index: number; field: ImportField };

/** A normal priority, as a lead made by Add has. */
const PRIORITY_NORMAL = LEAD_PRIORITIES[1];

/** A lead's value as compared: empty as the field's empty value, amounts as numbers, lists sorted. */
function comparable(f: ImportField, v: unknown): unknown {
  if (v == null) return f.def.type === 'boolean' ? false : f.def.type === 'multi-select' || f.def.type === 'flag-enum' ? [] : null;
  if (Array.isArray(v)) return v.map(String).sort();
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'string' && ['currency', 'area', 'number'].includes(f.def.type)) return Number(v);
  return v;
}

/** A cell left empty (a list with nothing chosen is empty too). */
const isEmpty = (v: unknown) => v == null || v === '' || (Array.isArray(v) && v.length === 0);

/** The lead columns' values as one text (the key of a lead for one client). */
const leadKey = (columns: Column[], v: Row) => JSON.stringify(columns.map(({ field }) => comparable(field, v[field.name])));

/** The ranges (min ≤ max, from ≤ until), said at the upper field as the lead form says them. */
export function checkLeadRanges(t: Translate, r: ReadRow) {
  for (const [lo, hi] of LEAD_RANGES) {
    const a = r.object[lo];
    const b = r.object[hi];
    if (a == null || b == null || r.errors.has(lo) || r.errors.has(hi) || (a as number | string) <= (b as number | string)) continue;
    r.errors.set(hi, t(lo.startsWith('area') ? 'leads.areaOrderTo' : lo === 'startDate' ? 'fields.dateOrderEnd' : 'fields.budgetOrderTo'));
  }
}

/**
 * Finds the rows whose lead is stored already (see the file's comment): one query, the leads of
 * the accounts the rows found. Such a row shows the lead as what is already in the CRM.
 */
export async function findSameLeads(db: Db | Tx, t: Translate, rows: ReadRow[], allColumns: Column[]) {
  const columns = allColumns.filter((c) => c.field.target === 'lead');
  const accountIds = [...new Set(rows.map((r) => r.existing?.id).filter((n): n is number => n !== undefined))];
  // Each client's stored leads, oldest first.
  const storedOf = new Map<number, Row[]>();
  if (accountIds.length) {
    const found = await db.select().from(leads).where(and(inArray(leads.accountId, accountIds), eq(leads.draft, false))).orderBy(leads.id);
    for (const l of found as Row[]) storedOf.set(l.accountId as number, [...(storedOf.get(l.accountId as number) ?? []), l]);
  }
  const inFile = new Map<string, number>();
  for (const r of rows) {
    if (r.errors.size) continue;
    const lead = leadKey(columns, r.object);
    if (r.existing) {
      // Compared by the cells the row fills: an empty cell says nothing (the stored lead may have
      // taken a default there, a stage or a start day, or been moved on since).
      const given = columns.filter(({ field }) => !isEmpty(r.object[field.name]));
      const rowKey = leadKey(given, r.object);
      const id = storedOf.get(r.existing.id)?.find((l) => leadKey(given, l) === rowKey)?.id as number | undefined;
      if (id !== undefined) {
        r.leadId = id;
        r.existing = { id, name: t('imports.leadStored', { id, name: r.existing.name }) };
        continue;
      }
    }
    const person = r.existing ? `a${r.existing.id}` : `r${r.sameAs ?? r.row}`;
    const earlier = inFile.get(`${person}|${lead}`);
    if (earlier !== undefined) r.errors.set('', t('imports.sameLeadAsRow', { row: earlier }));
    else inFile.set(`${person}|${lead}`, r.row);
  }
}

/** A list of choices in its list's order (as the lead form keeps it): property types, features. */
function inListOrder(v: unknown): unknown {
  if (!Array.isArray(v)) return v;
  const list: readonly (string | number)[] = typeof v[0] === 'string' ? OBJECT_FEATURES : OBJECT_SUBTYPES.map((s) => s.value);
  return list.filter((x) => v.includes(x));
}

/**
 * Inserts the leads of the rows taken, each for its client's account: never a draft, new and of
 * normal priority unless the file says, from today unless it says. Each is in the action log as
 * a lead added for a client is (and so an event for the webhooks), naming the import.
 */
export async function insertLeads(tx: Tx, actor: Actor, userId: number, importId: number, taken: ReadRow[], accountOfRow: Map<number, number>, today: string, batch: number): Promise<number[]> {
  // Every lead has its client: a row whose client was to come from a row left out is a fault here, not a lead without one.
  const clientOf = (r: ReadRow) => {
    const id = accountOfRow.get(r.row);
    if (id === undefined) throw new Error(`import ${importId}: row ${r.row} has no client`);
    return id;
  };
  const ids: number[] = [];
  for (let i = 0; i < taken.length; i += batch) {
    const part = taken.slice(i, i + batch);
    const made = await tx
      .insert(leads)
      .values(
        part.map(
          (r) =>
            ({
              stage: LEAD_STAGE_NEW,
              priority: PRIORITY_NORMAL,
              startDate: today,
              ...Object.fromEntries(Object.entries(r.object).filter(([, v]) => v != null).map(([k, v]) => [k, inListOrder(v)])),
              accountId: clientOf(r),
              draft: false,
              createdBy: userId,
              modifiedBy: userId,
            }) as never,
        ),
      )
      .returning({ id: leads.id });
    for (const [j, m] of made.entries()) {
      ids.push(m.id);
      await logAction(tx, actor, { action: 'Create', entity: 'Lead', entityId: m.id, data: { accountId: clientOf(part[j]!), importId } });
    }
  }
  return ids;
}
