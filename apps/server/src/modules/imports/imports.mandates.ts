import { sql } from 'drizzle-orm';
import { CULTURES, formatReferenceNumber, MANDATE_KINDS, MANDATE_MAX_EXCEPTIONS, MANDATE_MAX_OWNERS, OWNER_RELATION, type TCulture, type TMandateKind } from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { objectMandateOwners, objectMandates } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import type { FieldContext } from '../fields/field-registry.ts';
import { checkMandateLaw, MANDATE_LOG_ENTITY, mandateLogData } from '../mandates/mandates.service.ts';
import { objectTitle } from '../objects/objects.sql.ts';
import { normalizeHeader, type ImportField } from './imports.fields.ts';
import { CellError, emailKey, judge, phoneKey, readCell, type Lookups, type MandateDraft, type ReadRow, type Row } from './imports.cells.ts';

/**
 * A mandate's rows of an imported spreadsheet (decision 094): the property by its reference
 * number, the owners by their accounts' tax number, e-mail or phone (none given: the property's
 * owners, as the mandate form starts with them), the law's limits as the form's (checkMandateLaw,
 * its reason at the field), and the same mandate already in the CRM (same property, kind and
 * dates) found and left out; the owners' tax offices (ΔΟΥ) matched to those the CRM knows
 * (decision 096). Five queries in all, whatever the number of rows.
 */

type Translate = (key: string, params?: Record<string, string | number>) => string;
type Column = { index: number; field: ImportField };

/** A mandate's kind as a cell writes it: its name in any language, and the trade's other words. */
function kindWords(tr: (culture: TCulture, key: string) => string): Map<string, TMandateKind> {
  const m = new Map<string, TMandateKind>();
  const more: Record<TMandateKind, string[]> = {
    simple: ['simple', 'non exclusive', 'nonexclusive', 'open', 'απλη', 'απλη εντολη', 'μη αποκλειστικη', 'простое', 'простой', 'неэксклюзивное', 'неэксклюзивный'],
    exclusive: ['exclusive', 'sole', 'αποκλειστικη', 'αποκλειστικη εντολη', 'эксклюзивное', 'эксклюзивный', 'эксклюзив', 'исключительное'],
  };
  for (const kind of MANDATE_KINDS) {
    for (const culture of CULTURES) m.set(normalizeHeader(tr(culture, `mandates.kind.${kind}`)), kind);
    for (const w of more[kind]) m.set(normalizeHeader(w), kind);
  }
  return m;
}

/** The named exceptions of a cell: "Νίκος Γεωργίου (his brother); Anna Smith", one per ';' or line. */
function readExceptions(raw: string): { name: string; note: string | null }[] {
  const out: { name: string; note: string | null }[] = [];
  for (const part of raw.split(/[;\n]/).map((s) => s.trim()).filter(Boolean)) {
    const m = /^(.*?)\s*\(([^()]*)\)$/.exec(part);
    const name = (m ? m[1]! : part).trim().replace(/\s+/g, ' ');
    const note = m ? m[2]!.trim() || null : null;
    if (!name) throw new CellError('imports.exceptionWithoutName', { value: part });
    if (name.length > 200) throw new CellError('validation.tooLong', { max: 200 });
    if (note && note.length > 1000) throw new CellError('validation.tooLong', { max: 1000 });
    out.push({ name, note });
  }
  if (out.length > MANDATE_MAX_EXCEPTIONS) throw new CellError('imports.tooManyExceptions', { max: MANDATE_MAX_EXCEPTIONS });
  return out;
}

/** A tax number as compared: capitals, no spaces or dots, without a Greek VAT prefix (EL123456789). */
const taxKey = (s: string) => s.toUpperCase().replace(/[\s.-]/g, '').replace(/^(EL|GR)(?=\d{9}$)/, '');

/** An owner column's cell as the keys it finds accounts by ("tax:…", "email:…", "phone:…"). */
function ownerKeys(field: ImportField, raw: string): { key: string; value: string }[] {
  return raw
    .split(/[;,\n]/)
    .map((s) => s.trim())
    .filter(Boolean)
    .map((value) => {
      if (field.name === 'taxNumber') return { key: `tax:${taxKey(value)}`, value };
      if (field.name === 'email') {
        if (!/^[^\s@]+@[^\s@]+$/.test(value)) throw new CellError('validation.email');
        return { key: `email:${emailKey(value)}`, value };
      }
      const k = phoneKey(value);
      if (!k) throw new CellError('validation.phone');
      return { key: `phone:${k}`, value };
    });
}

/**
 * A tax office as compared (decision 096): no accents, case or punctuation, without a leading
 * "ΔΟΥ"/"Δ.Ο.Υ."/"DOY"/"tax office": «ΔΟΥ Δ' ΘΕΣΣΑΛΟΝΙΚΗΣ» is «Δ΄ Θεσσαλονίκης».
 */
export const taxOfficeKey = (s: string) =>
  normalizeHeader(s)
    .replace(/^(δου|δ ο υ|doy|d o y|tax office|налоговая инспекция|налоговая|доу)\s+/u, '')
    .trim();

/** The tax offices of a cell, one per owner in their order ("Καλαμαριάς; Δ΄ Θεσσαλονίκης"); an empty part leaves that owner's blank. */
function readTaxOffices(raw: string): string[] {
  const parts = raw.split(/[;\n]/).map((s) => s.trim().replace(/\s+/g, ' '));
  while (parts.length && !parts[parts.length - 1]) parts.pop();
  for (const part of parts) if (part.length > 100) throw new CellError('validation.tooLong', { max: 100 });
  return parts;
}

/**
 * The tax offices the CRM knows: those typed on mandates' owners and the agency's own, each in
 * its most used spelling, by taxOfficeKey.
 */
async function knownTaxOffices(db: Db | Tx): Promise<Map<string, string>> {
  const res = await db.execute(sql`select office, count(*)::int as n from (
      select tax_office as office from object_mandate_owners where tax_office is not null
      union all select tax_office from site_settings where tax_office is not null) x
    where btrim(office) <> '' group by office order by n desc, office`);
  const out = new Map<string, string>();
  for (const r of res.rows as { office: string }[]) {
    const k = taxOfficeKey(r.office);
    if (k && !out.has(k)) out.set(k, r.office);
  }
  return out;
}

/** Known offices near an unknown one: a word of five letters or more begins as one of theirs does. */
function nearTaxOffices(value: string, known: Map<string, string>): string[] {
  const stems = taxOfficeKey(value).split(' ').filter((w) => w.length >= 5).map((w) => w.slice(0, 5));
  if (!stems.length) return [];
  return [...known.entries()].filter(([k]) => k.split(' ').some((w) => stems.some((s) => w.startsWith(s)))).map(([, v]) => v).slice(0, 3);
}

const dmy = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`;
const LAW_FIELDS = ['kind', 'startDate', 'endDate', 'extendedUntil'];
/** The column of the owners' tax offices. */
const OFFICE_COLUMN = 'owner.taxOffice';

/** The rows of a mandates file, read and judged (see the file's comment); `shown` per column for the preview. */
export async function readMandateRows(
  db: Db | Tx,
  culture: TCulture,
  ctx: FieldContext,
  tr: (culture: TCulture, key: string, params?: Record<string, string | number>) => string,
  columns: Column[],
  cells: string[][],
  lookups: Lookups,
  /** A row's number in the sheet, by its place among the cells. */
  rowNumberOf: (i: number) => number = (i) => i + 2,
): Promise<ReadRow[]> {
  const t: Translate = (key, params) => tr(culture, key, params);
  const kinds = kindWords((c, k) => tr(c, k));
  const read: { r: ReadRow; ref: number | null; refText: string; owners: { column: string; key: string; value: string }[]; offices: string[]; values: Row }[] = [];
  for (let i = 0; i < cells.length; i++) {
    const cellsOfRow = cells[i]!;
    const r: ReadRow = { row: rowNumberOf(i), account: {}, object: {}, errors: new Map(), keys: [], nameKey: null, hasPerson: false, existing: null, sameAs: null, mandate: null, shown: {} };
    const item = { r, ref: null as number | null, refText: '', owners: [] as { column: string; key: string; value: string }[], offices: [] as string[], values: r.object };
    for (const { index, field } of columns) {
      const raw = (cellsOfRow[index] ?? '').trim();
      try {
        if (field.name === 'referenceNumber') {
          if (!raw) throw new CellError('validation.required');
          const digits = raw.replace(/^#\s*/, '');
          if (!/^\d{1,9}$/.test(digits)) throw new CellError('imports.unknownProperty', { value: raw });
          item.ref = Number(digits);
          item.refText = raw;
        } else if (field.name === 'kind') {
          if (!raw) throw new CellError('validation.required');
          const kind = kinds.get(normalizeHeader(raw));
          if (!kind) throw new CellError('imports.unknownChoice', { value: raw });
          item.values.kind = kind;
          r.shown![field.key] = t(`mandates.kind.${kind}`);
        } else if (field.key === OFFICE_COLUMN) {
          item.offices = readTaxOffices(raw);
        } else if (field.key.startsWith('owner.')) {
          for (const k of ownerKeys(field, raw)) item.owners.push({ column: field.key, ...k });
        } else if (field.name === 'exceptions') {
          const list = raw ? readExceptions(raw) : [];
          item.values.exceptions = list;
          r.shown![field.key] = list.map((e) => (e.note ? `${e.name} (${e.note})` : e.name)).join('; ');
        } else {
          item.values[field.name] = await judge(ctx, field.key, field, readCell(field, raw, lookups), item.values);
        }
      } catch (e) {
        if (!(e instanceof CellError)) throw e;
        r.errors.set(field.key, t(e.code, e.params));
      }
    }
    read.push(item);
  }

  // The properties by their reference numbers, with their owners (locked: the import's transaction adds
  // to them; in id order, as a deals import and a deal's save lock properties, so neither waits in a circle).
  const refs = [...new Set(read.map((x) => x.ref).filter((n): n is number => n !== null))];
  const props = new Map<number, { id: number; title: string | null; owners: { id: number; name: string }[] }>();
  if (refs.length) {
    const res = await db.execute(sql`select o.id, o.reference_number, ${objectTitle(culture, 'o')} as title from objects o
      where o.reference_number = any(${sql.param(refs)}::int[]) order by o.id for share of o`);
    for (const p of res.rows as { id: number; reference_number: number; title: string | null }[]) props.set(Number(p.reference_number), { id: Number(p.id), title: p.title, owners: [] });
    const ids = [...props.values()].map((p) => p.id);
    const byId = new Map([...props.values()].map((p) => [p.id, p]));
    if (ids.length) {
      const own = await db.execute(sql`select oa.object_id, a.id, a.display_name as name from object_accounts oa join accounts a on a.id = oa.account_id
        where oa.object_id = any(${sql.param(ids)}::int[]) and oa.relation = ${OWNER_RELATION} and a.erased_on is null order by oa.object_id, oa.created_on, a.id`);
      for (const o of own.rows as { object_id: number; id: number; name: string }[]) byId.get(Number(o.object_id))?.owners.push({ id: Number(o.id), name: o.name });
    }
  }
  // The accounts of the owner columns (erased ones cannot give a mandate): every match, to tell two apart.
  const accountsOf = await findAccounts(db, [...new Set(read.flatMap((x) => x.owners.map((o) => o.key)))]);
  // The tax offices the CRM knows, when the file has a column of them.
  const offices = columns.some((c) => c.field.key === OFFICE_COLUMN) ? await knownTaxOffices(db) : new Map<string, string>();
  // The mandates already stored for these properties.
  const propIds = [...new Set([...props.values()].map((p) => p.id))];
  const stored = new Map<string, number>();
  if (propIds.length) {
    const res = await db.execute(sql`select id, object_id, kind, start_date::text as s, end_date::text as e from object_mandates where object_id = any(${sql.param(propIds)}::int[]) order by id`);
    for (const m of res.rows as { id: number; object_id: number; kind: string; s: string; e: string }[]) {
      const k = `${m.object_id}|${m.kind}|${m.s}|${m.e}`;
      if (!stored.has(k)) stored.set(k, Number(m.id));
    }
  }

  const firstRowOf = new Map<string, number>();
  const ownerColumn = columns.find((c) => c.field.key.startsWith('owner.') && c.field.key !== OFFICE_COLUMN)?.field.key ?? '';
  for (const { r, ref, refText, owners, offices: officeCells, values } of read) {
    const at = (key: string) => (columns.some((c) => c.field.key === key) ? key : '');
    const prop = ref === null ? undefined : props.get(ref);
    if (ref !== null && !prop && !r.errors.has('referenceNumber')) r.errors.set('referenceNumber', t('imports.unknownProperty', { value: refText }));
    if (prop) r.shown!.referenceNumber = prop.title ? `${formatReferenceNumber(ref!)} · ${prop.title}` : formatReferenceNumber(ref!);
    // The owners: those the row names, else the property's.
    const ownerIds: number[] = [];
    const ownerNames: string[] = [];
    const names = new Map<string, string[]>();
    for (const o of owners) {
      const found = accountsOf.get(o.key) ?? [];
      if (found.length !== 1) {
        if (!r.errors.has(o.column)) r.errors.set(o.column, t(found.length ? 'imports.ownerAmbiguous' : 'imports.ownerNotFound', { value: o.value, names: found.map((a) => a.name).join(', ') }));
        continue;
      }
      if (!ownerIds.includes(found[0]!.id)) {
        ownerIds.push(found[0]!.id);
        ownerNames.push(found[0]!.name);
      }
      names.set(o.column, [...(names.get(o.column) ?? []), found[0]!.name]);
    }
    for (const [column, list] of names) r.shown![column] = list.join('; ');
    if (!owners.length && prop) {
      ownerIds.push(...prop.owners.map((o) => o.id));
      ownerNames.push(...prop.owners.map((o) => o.name));
      if (ownerColumn && prop.owners.length) r.shown![ownerColumn] = t('imports.propertyOwners', { names: prop.owners.map((o) => o.name).join(', ') });
    }
    if (ownerIds.length > MANDATE_MAX_OWNERS) r.errors.set(at(ownerColumn), t('imports.tooManyOwners', { max: MANDATE_MAX_OWNERS }));
    // The owners' tax offices: each one the CRM knows (its spelling kept), one per owner once the owners are found.
    const taxOffices: (string | null)[] = ownerIds.map(() => null);
    if (officeCells.length && !r.errors.has(OFFICE_COLUMN)) {
      const matched: (string | null)[] = [];
      for (const cell of officeCells) {
        if (!cell) {
          matched.push(null);
          continue;
        }
        const found = offices.get(taxOfficeKey(cell));
        if (found) {
          matched.push(found);
          continue;
        }
        const near = nearTaxOffices(cell, offices);
        r.errors.set(OFFICE_COLUMN, near.length ? t('imports.unknownTaxOfficeNear', { value: cell, names: near.join(', ') }) : t('imports.unknownTaxOffice', { value: cell }));
        break;
      }
      const ownersFound = !owners.some((o) => r.errors.has(o.column)) && (owners.length > 0 || !!prop);
      if (!r.errors.has(OFFICE_COLUMN) && ownersFound) {
        if (matched.length !== ownerIds.length) r.errors.set(OFFICE_COLUMN, t('imports.taxOfficesPerOwner', { count: matched.length, owners: ownerIds.length }));
        else {
          matched.forEach((m, i) => (taxOffices[i] = m));
          // Said owner by owner: whose office is which, the property's owners in the CRM's order included.
          r.shown![OFFICE_COLUMN] = matched.map((m, i) => `${ownerNames[i]}: ${m ?? '—'}`).join('; ');
        }
      }
    }
    // The law's limits, as the form's (decision 079), when the dates and the kind are read.
    let extensions = 0;
    if (!LAW_FIELDS.some((f) => r.errors.has(f)) && values.kind && values.startDate && values.endDate) {
      try {
        extensions = checkMandateLaw({ kind: values.kind as TMandateKind, startDate: values.startDate as string, endDate: values.endDate as string, extendedUntil: (values.extendedUntil as string | null) ?? null }, null);
      } catch (e) {
        if (!(e instanceof AppError) || !e.fieldErrors) throw e;
        const [field, list] = Object.entries(e.fieldErrors)[0]!;
        r.errors.set(at(field), t(list[0]!.code, list[0]!.params));
      }
    }
    if (r.errors.size || !prop) continue;
    const draft: MandateDraft = {
      objectId: prop.id,
      kind: values.kind as TMandateKind,
      startDate: values.startDate as string,
      endDate: values.endDate as string,
      extendedUntil: (values.extendedUntil as string | null) ?? null,
      extensions,
      askingPrice: (values.askingPrice as number | null) ?? null,
      commissionPercent: (values.commissionPercent as number | null) ?? null,
      commissionAmount: (values.commissionAmount as number | null) ?? null,
      exceptions: (values.exceptions as MandateDraft['exceptions'] | undefined) ?? [],
      notes: (values.notes as string | null) ?? null,
      ownerIds,
      taxOffices,
    };
    // The same mandate twice: in the CRM already (left out), or earlier in the file (an error).
    const same = `${draft.objectId}|${draft.kind}|${draft.startDate}|${draft.endDate}`;
    const storedId = stored.get(same);
    if (storedId !== undefined) {
      r.existing = { id: storedId, name: `${formatReferenceNumber(ref!)}: ${t(`mandates.kind.${draft.kind}`)} ${dmy(draft.startDate)}–${dmy(draft.endDate)}` };
    } else if (firstRowOf.has(same)) {
      r.errors.set('referenceNumber', t('imports.sameMandateAsRow', { row: firstRowOf.get(same)! }));
      continue;
    } else firstRowOf.set(same, r.row);
    r.mandate = draft;
  }
  return read.map((x) => x.r);
}

/** Accounts (not erased) by tax number, e-mail or phone key: every account a key finds. */
async function findAccounts(db: Db | Tx, keys: string[]): Promise<Map<string, { id: number; name: string }[]>> {
  const out = new Map<string, { id: number; name: string }[]>();
  const of = (prefix: string) => keys.filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
  const add = (rows: unknown[], prefix: string) => {
    for (const r of rows as { k: string; id: number; name: string }[]) {
      const list = out.get(`${prefix}${r.k}`) ?? [];
      if (!list.some((a) => a.id === Number(r.id))) list.push({ id: Number(r.id), name: r.name });
      out.set(`${prefix}${r.k}`, list);
    }
  };
  const tax = of('tax:');
  if (tax.length) {
    const res = await db.execute(sql`select x.k, a.id, a.display_name as name from accounts a
      cross join lateral (values (upper(regexp_replace(coalesce(a.tax_number, ''), '[\\s.-]', '', 'g'))), (upper(regexp_replace(coalesce(a.tax_number_of_other_country, ''), '[\\s.-]', '', 'g')))) x(k)
      where a.erased_on is null and x.k <> '' and x.k = any(${sql.param(tax)}::text[]) order by a.id`);
    add(res.rows, 'tax:');
  }
  const emails = of('email:');
  if (emails.length) {
    const res = await db.execute(sql`select distinct x.k, a.id, a.display_name as name from accounts a cross join lateral unnest(a.emails) e
      cross join lateral (select lower(btrim(e)) as k) x where a.erased_on is null and x.k = any(${sql.param(emails)}::text[]) order by a.id`);
    add(res.rows, 'email:');
  }
  const phones = of('phone:');
  if (phones.length) {
    const res = await db.execute(sql`select distinct x.k, a.id, a.display_name as name from accounts a cross join lateral unnest(a.phones) p
      cross join lateral (select right(regexp_replace(p, '\\D', '', 'g'), 10) as k) x
      where a.erased_on is null and length(regexp_replace(p, '\\D', '', 'g')) >= 8 and x.k = any(${sql.param(phones)}::text[]) order by a.id`);
    add(res.rows, 'phone:');
  }
  return out;
}

/**
 * The mandates of the rows taken, in batches, each with its owners, and each written to the
 * action log as the form's new mandate is (entity Mandate, its data naming the import).
 */
export async function insertMandates(tx: Tx, actor: Actor, userId: number, importId: number, rows: ReadRow[]): Promise<number[]> {
  const ids: number[] = [];
  const BATCH = 500;
  for (let i = 0; i < rows.length; i += BATCH) {
    const part = rows.slice(i, i + BATCH).map((r) => r.mandate!);
    const made = await tx
      .insert(objectMandates)
      .values(
        part.map((m) => ({
          objectId: m.objectId,
          kind: m.kind,
          startDate: m.startDate,
          endDate: m.endDate,
          extendedUntil: m.extendedUntil,
          extensions: m.extensions,
          askingPrice: m.askingPrice,
          commissionPercent: m.commissionPercent,
          commissionAmount: m.commissionAmount,
          exceptions: m.exceptions,
          notes: m.notes,
          createdBy: userId,
          modifiedBy: userId,
        })),
      )
      .returning({ id: objectMandates.id });
    const owners = part.flatMap((m, j) => m.ownerIds.map((accountId, position) => ({ mandateId: made[j]!.id, accountId, position, taxOffice: m.taxOffices[position] ?? null })));
    if (owners.length) await tx.insert(objectMandateOwners).values(owners);
    for (const [j, m] of part.entries()) {
      const id = made[j]!.id;
      ids.push(id);
      const data = { objectId: m.objectId, ...mandateLogData({ ...m, owners: m.ownerIds.map((accountId, position) => ({ accountId, taxOffice: m.taxOffices[position] ?? null })) }), importId };
      await logAction(tx, actor, { action: 'Create', entity: MANDATE_LOG_ENTITY, entityId: id, data });
    }
  }
  return ids;
}
