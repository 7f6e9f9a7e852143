import type { FastifyInstance } from 'fastify';
import { CULTURES, DEAL_STAGES, DEAL_TYPES, LEAD_PRIORITIES, LEAD_STAGES, MAX_EMAILS, MAX_PHONES, OBJECT_FEATURES, isEmailList, isPhoneList, parseTypedDate, type TCulture } from '@crm/contract';
import { readTypedDecimal } from '@crm/contract/typed-number';
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { accounts, locations } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { FieldContext } from '../fields/field-registry.ts';
import { normalizeValue } from '../fields/field-values.ts';
import { listChoices, normalizeHeader, type ImportField } from './imports.fields.ts';

/**
 * A spreadsheet cell read as the value its field stores (decision 052): the readers every kind of
 * import shares (owners, properties, mandates), and the row each kind reads.
 */
export type Row = Record<string, unknown>;

// Reading the rows

/** A phone's key: its last ten digits ("+30 694 123 4567" = "6941234567"); none under eight digits. */
export const phoneKey = (p: string) => {
  const d = p.replace(/\D/g, '');
  return d.length >= 8 ? d.slice(-10) : null;
};
export const emailKey = (e: string) => e.trim().toLowerCase();
/** A phone or e-mail cell's parts: separated by ';' (as the CRM keeps them), ',' or a line break. */
export const splitContacts = (text: string) => text.split(/[;,\n]/).map((s) => s.trim()).filter(Boolean);

const YES = new Set(['yes', 'y', 'true', '1', 'x', 'ναι', 'ν', 'да', 'д', '+']);
const NO = new Set(['no', 'n', 'false', '0', 'οχι', 'ο', 'нет', 'н', '-']);
/** A gender as a cell writes it (normalized): words and initials in en, el and ru. */
const GENDER_WORDS: Record<string, 'male' | 'female'> = Object.fromEntries([
  ...['male', 'm', 'man', 'mr', 'άνδρας', 'άντρας', 'α', 'άρρεν', 'αρσενικό', 'κ', 'κος', 'мужской', 'муж', 'м', 'мужчина'].map((w) => [normalizeHeader(w), 'male'] as const),
  ...['female', 'f', 'woman', 'mrs', 'ms', 'γυναίκα', 'γ', 'θήλυ', 'θ', 'κα', 'женский', 'жен', 'ж', 'женщина'].map((w) => [normalizeHeader(w), 'female'] as const),
]);

type Place = { id: number; text: string; path: number[] };
export type Lookups = {
  /** Places by a normalized name (several places may share one: then the name alone is refused). */
  places: Map<string, Place[]>;
  /** A list's values by their names in any language (and by their ids): object lists by name, a lead's by ImportField.choices. */
  choices: Map<string, Map<string, number | string>>;
};

export async function loadLookups(app: FastifyInstance, db: Db | Tx, culture: TCulture, fields: ImportField[]): Promise<Lookups> {
  const t = app.translator.t.bind(app.translator);
  const places = new Map<string, Place[]>();
  if (fields.some((f) => f.def.type === 'location')) {
    const rows = await db
      .select({ id: locations.id, path: locations.path, nameEn: locations.nameEn, nameEl: locations.nameEl, nameRu: locations.nameRu, textEn: locations.textEn, textEl: locations.textEl, textRu: locations.textRu })
      .from(locations);
    for (const r of rows) {
      const shown = culture === 'el' ? r.textEl || r.nameEl : culture === 'ru' ? r.textRu || r.nameRu : r.textEn || r.nameEn;
      const place = { id: r.id, text: shown, path: r.path };
      for (const name of new Set([r.nameEn, r.nameEl, r.nameRu, r.textEn, r.textEl, r.textRu].filter(Boolean).map(normalizeHeader))) {
        const list = places.get(name) ?? [];
        if (!list.some((p) => p.id === r.id)) list.push(place);
        places.set(name, list);
      }
    }
  }
  const choices = new Map<string, Map<string, number | string>>();
  for (const f of fields) if (f.list && !choices.has(f.list)) choices.set(f.list, listChoices(t, f.list));
  const named = (values: readonly (number | string)[], key: (v: number | string) => string) => {
    const m = new Map<string, number | string>();
    for (const v of values) {
      m.set(String(v), v);
      for (const c of CULTURES) m.set(normalizeHeader(t(c, key(v))), v);
    }
    return m;
  };
  for (const f of fields) {
    if (!f.choices || choices.has(f.choices)) continue;
    if (f.choices === 'lead.stage') choices.set(f.choices, named(LEAD_STAGES, (v) => `leads.stage.${v}`));
    if (f.choices === 'lead.priority') choices.set(f.choices, named(LEAD_PRIORITIES, (v) => `leads.priority.${v}`));
    if (f.choices === 'lead.features') choices.set(f.choices, named(OBJECT_FEATURES, (v) => `fields.object.${v}`));
    if (f.choices === 'deal.type') choices.set(f.choices, named(DEAL_TYPES, (v) => `deals.type.${v}`));
    if (f.choices === 'deal.stage') {
      // A stage by its name, and by the name a sale or a rental gives it (Deals.xlsx writes those).
      const m = named(DEAL_STAGES, (v) => `deals.stage.${v}`);
      for (const kind of ['sale', 'rental']) for (const v of DEAL_STAGES) for (const c of CULTURES) {
        const k = `deals.stage.${kind}.${v}`;
        const text = t(c, k);
        if (text !== k && !m.has(normalizeHeader(text))) m.set(normalizeHeader(text), v);
      }
      choices.set(f.choices, m);
    }
    if (f.choices === 'lead.source') {
      // The sources are accounts marked as one (as the lead form offers them): by their names.
      const m = new Map<string, number | string>();
      for (const a of await db.select({ id: accounts.id, name: accounts.displayName }).from(accounts).where(eq(accounts.isSource, true))) {
        const k = normalizeHeader(a.name ?? '');
        if (k && !m.has(k)) m.set(k, a.id);
      }
      choices.set(f.choices, m);
    }
  }
  return { places, choices };
}

/** Decimals a numeric field keeps (as the single-field editor rounds them). */
function decimalsOf(f: ImportField): number {
  if (f.def.integer) return 0;
  // A mandate keeps cents and hundredths of a per cent (numeric(14,2), numeric(5,2)).
  if (f.target === 'mandate') return 2;
  switch (f.def.type) {
    case 'distance':
      return 0;
    case 'distance-km':
      return 1;
    case 'currency':
    case 'area':
      return 2;
    default:
      return 6;
  }
}

export class CellError extends Error {
  constructor(
    public readonly code: string,
    public readonly params: Record<string, string | number> = {},
  ) {
    super(code);
  }
}

/** A cell's text as the value the field stores (what normalizeValue then judges), or a CellError. */
export function readCell(f: ImportField, raw: string, lookups: Lookups): unknown {
  if (raw === '') return null;
  if (f.target === 'account' && f.name === 'gender') {
    const g = GENDER_WORDS[normalizeHeader(raw)];
    if (!g) throw new CellError('imports.unknownChoice', { value: raw });
    return g;
  }
  switch (f.def.type) {
    case 'number':
    case 'distance':
    case 'distance-km':
    case 'currency':
    case 'area': {
      const r = readTypedDecimal(raw, decimalsOf(f), (f.def.min ?? 0) < 0);
      if (r.kind === 'bad') throw new CellError(r.reason === 'precision' ? 'imports.tooManyDecimals' : r.reason === 'negative' ? 'imports.negative' : 'imports.badNumber', { value: raw, decimals: decimalsOf(f) });
      if (r.kind === 'empty') return null;
      return Number(`${r.negative ? '-' : ''}${r.int}.${r.frac || '0'}`);
    }
    case 'date': {
      const iso = /^\d{4}-\d{2}-\d{2}$/.test(raw) ? raw : parseTypedDate(raw);
      if (!iso) throw new CellError('imports.badDate', { value: raw });
      return iso;
    }
    case 'boolean':
    case 'boolNullable': {
      const n = normalizeHeader(raw) || raw.trim();
      if (YES.has(n)) return true;
      if (NO.has(n)) return false;
      throw new CellError('imports.badYesNo', { value: raw });
    }
    case 'select': {
      const v = lookups.choices.get(f.choices ?? f.list!)?.get(normalizeHeader(raw));
      if (v === undefined) throw new CellError('imports.unknownChoice', { value: raw });
      return v;
    }
    case 'multi-select':
    case 'flag-enum': {
      const out: (number | string)[] = [];
      for (const part of raw.split(/[,;/]/).map((s) => s.trim()).filter(Boolean)) {
        const v = lookups.choices.get(f.choices ?? f.list!)?.get(normalizeHeader(part));
        if (v === undefined) throw new CellError('imports.unknownChoice', { value: part });
        if (!out.includes(v)) out.push(v);
      }
      return out;
    }
    case 'location': {
      const found = lookups.places.get(normalizeHeader(raw)) ?? [];
      if (!found.length) throw new CellError('imports.unknownPlace', { value: raw });
      // A municipality and its area of the same name (Καλαμαριά): the area, the place itself.
      const deepest = found.reduce((a, b) => (b.path.length > a.path.length ? b : a));
      if (found.some((p) => !deepest.path.includes(p.id))) throw new CellError('imports.placeAmbiguous', { value: raw, places: found.slice(0, 3).map((p) => p.text).join('; ') });
      return deepest.id;
    }
    default:
      return raw;
  }
}

/** A contact cell (phones or e-mails) as the list the account keeps. */
export function readContacts(kind: 'phone' | 'email', raw: string): string[] {
  const list = splitContacts(raw);
  // As the account form limits the ';'-joined text (ACCOUNT_FIELD_DESCRIPTIONS: 1000 and 500).
  const max = kind === 'email' ? 1000 : 500;
  if (list.join(';').length > max) throw new CellError('validation.tooLong', { max });
  if (kind === 'email') {
    if (!isEmailList(list.join(';'))) throw new CellError('validation.email');
    if (list.length > MAX_EMAILS) throw new CellError('accounts.tooManyEmails', { max: MAX_EMAILS });
  } else {
    if (!isPhoneList(list.join(';'))) throw new CellError('validation.phone');
    if (list.length > MAX_PHONES) throw new CellError('accounts.tooManyPhones', { max: MAX_PHONES });
  }
  return list;
}

export type ReadRow = {
  row: number;
  /** Values of the record's fields, as stored. */
  account: Row;
  object: Row;
  errors: Map<string, string>;
  /** Keys of the person (phones, e-mails) that find an existing account or an owner made earlier in the file. */
  keys: string[];
  /** The person's names, for matching owners without phone or e-mail within the file. */
  nameKey: string | null;
  hasPerson: boolean;
  existing: { id: number; name: string } | null;
  /** The client's cell whose phone or e-mail found `existing`. */
  foundBy?: 'phone' | 'email';
  /** The row of the file whose new account this row's person is (properties sharing an owner). */
  sameAs: number | null;
  /** A mandate's row (decision 094): the mandate as it would be stored, its owners' accounts. */
  mandate: MandateDraft | null;
  /** A lead's row whose lead is stored already (imports.leads.ts): it is left out. */
  leadId?: number;
  /** A deal's row (imports.deals.ts): its property and that property's owners (the deal's sellers or landlords). */
  deal?: { objectId: number; ownerIds: number[] };
  /** A deal's row whose deal is stored already (imports.deals.ts): it is left out. */
  dealId?: number;
  /** A deal's party columns as the cells write them (the agent, the lawyer, the notary), by field key. */
  partyCells?: Record<string, string>;
  /** A deal's people those cells name (imports.deals.ts), each in its relation. */
  parties?: { relation: number; accountId: number }[];
  /** Each name those cells hold, with every account of that name (a stored deal may have a namesake of the one taken). */
  partyNames?: { relation: number; ids: number[] }[];
  /** What the preview shows of a column when it is not the stored value as it is (a mandate's property, kind, owners). */
  shown?: Record<string, string>;
};

export type MandateDraft = {
  objectId: number;
  kind: 'simple' | 'exclusive';
  startDate: string;
  endDate: string;
  extendedUntil: string | null;
  extensions: number;
  askingPrice: number | null;
  commissionPercent: number | null;
  commissionAmount: number | null;
  exceptions: { name: string; note: string | null }[];
  notes: string | null;
  ownerIds: number[];
  /** Each owner's tax office (ΔΟΥ), by position, as the CRM spells it (decision 096). */
  taxOffices: (string | null)[];
};

export async function judge(ctx: FieldContext, field: string, f: ImportField, value: unknown, row: Row): Promise<unknown> {
  try {
    return await normalizeValue(field, f.def, value, ctx, row);
  } catch (e) {
    if (e instanceof AppError && e.fieldErrors) {
      const first = Object.values(e.fieldErrors)[0]?.[0];
      if (first) throw new CellError(first.code, first.params);
    }
    throw e;
  }
}

/**
 * Accounts `a` named one of `names` ("Last First" or as a file writes a name), in search form: by the
 * display name or by the last and first name alone (a display name holds the middle name), each on
 * its index (migration 0129).
 */
export const namedAs = (names: string[]) => {
  const norm = sql`array(select public.crm_search_norm(x) from unnest(${sql.param(names)}::text[]) x)`;
  return sql`(public.crm_search_norm(a.display_name) = any(${norm})
    or public.crm_search_norm(btrim(coalesce(a.last_name, '') || ' ' || coalesce(a.first_name, ''))) = any(${norm}))`;
};

/**
 * A stored person's keys as a row's name is keyed ("last|first", normalised): with the middle name
 * too, as a file's full name «Волков Максим Александрович» reads its words after the last name.
 */
export const personNameKeys = (last: string | null | undefined, first: string | null | undefined, middle: string | null | undefined) => {
  const [l, f] = [normalizeHeader(last ?? ''), normalizeHeader(first ?? '')];
  return [`${l}|${f}`, ...(middle?.trim() ? [`${l}|${normalizeHeader(`${first ?? ''} ${middle}`)}`] : [])];
};
