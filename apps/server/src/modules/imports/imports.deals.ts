import { and, eq, inArray, sql } from 'drizzle-orm';
import { DEAL_RANGES, EMPLOYEE_ROLES, DEAL_RELATION, DEAL_RENTAL_ONLY, DEAL_SALE_ONLY, DEAL_STAGE_CANCELLED, DEAL_STAGE_CLOSED, DEAL_TYPE_RENTAL, formatReferenceNumber, type TCulture, type TDealUpdate } from '@crm/contract';
import type { FastifyInstance } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import type { Caller } from '../../plugins/auth.ts';
import { accounts, dealParties, deals } from '../../db/schema/index.ts';
import { storeDeal } from '../deals/deals.service.ts';
import { objectTitle } from '../objects/objects.sql.ts';
import { normalizeHeader, type ImportField } from './imports.fields.ts';
import { emailKey, namedAs, personNameKeys, type ReadRow, type Row } from './imports.cells.ts';

/**
 * A deal's rows of an imported spreadsheet: the client (buyer or tenant) is read as a lead's client
 * is (imports.service.ts); here the property by its reference number, the rules the deal form's
 * save keeps (a sale's and a rental's own fields, dates in order), and the deal's key against a
 * second import. A deal is the same as one stored when it is about the same property, of the same
 * type, with the same buyer or tenant (or, without a client in the row, any), and every deal cell
 * the row fills holds the same value (an empty cell is not compared: the stored deal may have been
 * filled in since): that row is left out, so a file imported again (or one that repeats earlier
 * rows) makes no second deal. A client named by name alone (no phone, no e-mail) is the stored deal's
 * buyer or tenant of that name on the same property. A row whose stored deal (same property, type
 * and client) is at another stage is shown so and left out: the deal moved on in the CRM since.
 * Two rows with the same values in one file are an error at the second. A client who owns the
 * property (found by phone or e-mail) is an error: the owner is the deal's seller or landlord.
 * The agent, lawyer and notary a row names (findParties) are the deal's people too; a stored deal
 * with the same values but other people (changed in the CRM since) is shown so and left out too.
 * Three queries in all, whatever the number of rows (the deals are then made one by one).
 */

type Translate = (key: string, params?: Record<string, string | number>) => string;
type Column = { index: number; field: ImportField };

/** A deal's value as compared: amounts as numbers, days as 'YYYY-MM-DD', empty as null. */
function comparable(f: ImportField, v: unknown): unknown {
  if (v == null || v === '') return null;
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (['currency', 'area', 'number', 'select'].includes(f.def.type)) return Number(v);
  return v;
}
const dealKey = (columns: Column[], v: Row) => JSON.stringify(columns.map(({ field }) => comparable(field, v[field.name])));

type Person = { id: number; name: string; preferred: boolean };
type Named = { people: Person[]; groups: number[][] } | { error: 'unknown' | 'twice'; value: string };

/**
 * The people a cell names: the whole cell if it is one name, else each of its parts (Deals.xlsx
 * writes "A, B"); with each name's every account (`groups`: a stored deal may have a namesake).
 */
function peopleOf(cell: string, find: (text: string) => Person[]): Named {
  const one = (text: string): { person: Person; all: Person[] } | { error: 'unknown' | 'twice'; value: string } => {
    const all = find(text);
    // Several of one name: the one marked for the role (an employee; a lawyer, a notary), if only one is.
    const list = all.length > 1 && all.filter((p) => p.preferred).length === 1 ? all.filter((p) => p.preferred) : all;
    return list.length === 1 ? { person: list[0]!, all } : { error: list.length ? 'twice' : 'unknown', value: text };
  };
  const whole = one(cell);
  const parts = cell.split(/[,;\n]/).map((x) => x.trim()).filter(Boolean);
  if (!('error' in whole)) return { people: [whole.person], groups: [whole.all.map((p) => p.id)] };
  if (parts.length < 2 || whole.error === 'twice') return whole;
  const people: Person[] = [];
  const groups: number[][] = [];
  for (const part of parts) {
    const p = one(part);
    if ('error' in p) return p;
    if (!people.some((x) => x.id === p.person.id)) people.push(p.person);
    groups.push(p.all.map((x) => x.id));
  }
  return { people, groups };
}

/**
 * A name as an account's display name may write it ("Last First", or as the cell has it): each
 * turn of its words, in crm_search_norm's form by the query (migration 0129 indexes the display
 * names in that form).
 */
export const nameTurns = (text: string) => {
  const words = text.trim().split(/\s+/).filter(Boolean);
  // A person's name is a few words: a longer text (a firm's name) is looked up only as it is (its
  // turns would grow with its square).
  if (words.length > NAME_WORDS_MAX) return [words.join(' ')];
  return words.map((_, k) => [...words.slice(k), ...words.slice(0, k)].join(' '));
};
/** The most words a person's name in a cell has (last, first, middle, a second surname). */
export const NAME_WORDS_MAX = 5;

/**
 * A deal's agent, lawyer and notary columns (see imports.fields.ts): the agent is an employee of the
 * agency (an account marked so, or an office user's: an administrator or an employee, never a
 * payments client's sign-in), found by the full name (either order) or an e-mail; a lawyer or a
 * notary is an account of that name (letters compared without accents and case), the one marked as
 * one when two share it. An unknown name, or one that two people share, is an error at its cell.
 * Two queries in all, each on an index: the employees, and the accounts of the lawyers' and
 * notaries' names.
 */
export async function findParties(db: Db | Tx, t: Translate, rows: ReadRow[], allColumns: Column[]) {
  const columns = allColumns.filter((c) => c.field.target === 'party');
  if (!columns.length || !rows.some((r) => r.partyCells)) return;
  const key = (text: string) => normalizeHeader(text);
  // A name is first looked for as a display name («Νομικός Κώστας» is not «Νομικός Κώστας Ιωάννου»),
  // then as a last and first name in either order, or an e-mail; the one marked for the role (a lawyer,
  // a notary, an employee) among them wins over a display name's account that is not.
  const index = (list: { id: number; name: string; keys: string[]; preferred: boolean }[]) => {
    const [exact, other] = [new Map<string, Person[]>(), new Map<string, Person[]>()];
    const add = (m: Map<string, Person[]>, k: string, p: Person) => {
      if (k && !m.get(k)?.some((x) => x.id === p.id)) m.set(k, [...(m.get(k) ?? []), p]);
    };
    for (const p of list) {
      const person = { id: p.id, name: p.name, preferred: p.preferred };
      add(exact, key(p.name), person);
      for (const k of p.keys) add(other, k, person);
    }
    return (text: string) => {
      if (text.includes('@')) return other.get(emailKey(text)) ?? [];
      const [ex, ot] = [exact.get(key(text)), other.get(key(text))];
      // The display name's accounts, unless only another of that last and first name is marked for the role.
      if (ex && (ex.some((p) => p.preferred) || !ot?.some((p) => p.preferred))) return ex;
      return ot ?? ex ?? [];
    };
  };
  const nameKeys = (r: Record<string, unknown>) => [key(String(r.name ?? '')), key(`${r.first_name ?? ''} ${r.last_name ?? ''}`), key(`${r.last_name ?? ''} ${r.first_name ?? ''}`)];
  const finders = new Map<string, (text: string) => Person[]>();
  if (columns.some((c) => c.field.key === 'agent')) {
    const res = await db.execute(sql`select a.id, a.display_name as name, a.first_name, a.last_name, a.emails, null as user_email, a.is_employe
        from accounts a where a.is_employe
      union all
      select a.id, a.display_name, a.first_name, a.last_name, a.emails, u.email, a.is_employe
        from users u join accounts a on a.id = u.account_id where not u.disabled and u.roles && ${sql.param([...EMPLOYEE_ROLES])}::text[]`);
    const list = (res.rows as Record<string, unknown>[]).map((r) => ({
      id: Number(r.id),
      name: String(r.name ?? ''),
      keys: [...nameKeys(r), ...((r.emails as string[] | null) ?? []).map(emailKey), ...(r.user_email ? [emailKey(String(r.user_email))] : [])],
      preferred: r.is_employe === true,
    }));
    finders.set('agent', index(list));
  }
  const others = columns.filter((c) => c.field.key !== 'agent');
  if (others.length) {
    // The accounts named as the cells name them (whole and by parts, each turn of a name's words), by
    // the display name or the last and first name, on their indexes (migration 0129); the names are
    // then compared here as the agent's are.
    const texts = new Set<string>();
    for (const r of rows) for (const c of others) {
      const cell = r.partyCells?.[c.field.key];
      if (!cell) continue;
      for (const x of [cell, ...cell.split(/[,;\n]/)]) for (const turn of nameTurns(x)) texts.add(turn);
    }
    const res = texts.size
      ? await db.execute(sql`select a.id, a.display_name as name, a.first_name, a.last_name, a.is_lawyer, a.is_attorney, a.is_notary from accounts a
          where ${namedAs([...texts])}`)
      : { rows: [] };
    const found = res.rows as Record<string, unknown>[];
    for (const c of others) {
      const marked = (r: Record<string, unknown>) => (c.field.relation === DEAL_RELATION.notary ? r.is_notary === true : r.is_lawyer === true || r.is_attorney === true);
      finders.set(c.field.key, index(found.map((r) => ({ id: Number(r.id), name: String(r.name ?? ''), keys: nameKeys(r), preferred: marked(r) }))));
    }
  }
  for (const r of rows) {
    if (!r.partyCells) continue;
    for (const { field } of columns) {
      const cell = r.partyCells[field.key];
      if (!cell) continue;
      const got = peopleOf(cell, finders.get(field.key)!);
      if ('error' in got) {
        const agent = field.key === 'agent';
        r.errors.set(field.key, t(got.error === 'unknown' ? (agent ? 'imports.unknownAgent' : 'imports.unknownPerson') : agent ? 'imports.agentTwice' : 'imports.personTwice', { value: got.value }));
        continue;
      }
      (r.parties ??= []).push(...got.people.map((p) => ({ relation: field.relation!, accountId: p.id })));
      (r.partyNames ??= []).push(...got.groups.map((ids) => ({ relation: field.relation!, ids })));
      (r.shown ??= {})[field.key] = got.people.map((p) => p.name).join(', ');
    }
  }
}

/**
 * The properties of the rows (their owners: the deal's sellers or landlords, as a deal started from
 * the property has them), the form's rules, and the deals already stored (see the file's comment).
 */
export async function findDeals(db: Db | Tx, culture: TCulture, t: Translate, rows: ReadRow[], allColumns: Column[], lock = false) {
  const columns = allColumns.filter((c) => c.field.target === 'deal' && c.field.name !== 'referenceNumber');
  const refOf = (r: ReadRow) => {
    const raw = String(r.object.referenceNumber ?? '').replace(/^#\s*/, '');
    return /^\d{1,9}$/.test(raw) ? Number(raw) : null;
  };
  const refs = [...new Set(rows.map(refOf).filter((n): n is number => n !== null))];
  const props = new Map<number, { id: number; title: string | null; ownerIds: number[] }>();
  if (refs.length) {
    // The owners as GET /api/Deal/add?objectId= takes them (owners and co-owners, at most ten).
    const res = await db.execute(sql`select o.id, o.reference_number, ${objectTitle(culture, 'o')} as title,
        coalesce((select array_agg(x.id order by x.id) from (select distinct a.id from object_accounts l join accounts a on a.id = l.account_id
          where l.object_id = o.id and l.relation in (1, 2) order by a.id limit 10) x), '{}') as owners
      from objects o where o.reference_number = any(${sql.param(refs)}::int[])
      ${lock ? sql`order by o.id for no key update of o` : sql``}`);
    for (const p of res.rows as { id: number; reference_number: number; title: string | null; owners: number[] }[]) {
      props.set(Number(p.reference_number), { id: Number(p.id), title: p.title, ownerIds: p.owners.map(Number) });
    }
  }
  const required = allColumns.filter((c) => c.field.target === 'deal' && c.field.required);
  for (const r of rows) {
    const o = r.object;
    // The type and the stage, always set on a deal: an empty cell is not taken as a sale in negotiation.
    for (const { field } of required) if (o[field.name] == null && !r.errors.has(field.key)) r.errors.set(field.key, t('validation.required'));
    if (!r.errors.has('referenceNumber')) {
      const ref = refOf(r);
      const prop = ref === null ? undefined : props.get(ref);
      // Locked when importing (in id order, as the deal's save locks it), so a deal saved meanwhile waits.
      if (!prop) r.errors.set('referenceNumber', t('imports.unknownProperty', { value: String(o.referenceNumber ?? '') }));
      else {
        r.deal = { objectId: prop.id, ownerIds: prop.ownerIds };
        r.shown!.referenceNumber = prop.title ? `${formatReferenceNumber(ref!)} · ${prop.title}` : formatReferenceNumber(ref!);
        // The owner would be both seller (or landlord) and buyer (or tenant).
        const cell = r.foundBy ?? 'phone';
        if (r.existing && prop.ownerIds.includes(r.existing.id) && !r.errors.has(cell)) r.errors.set(cell, t('imports.clientIsOwner'));
      }
    }
    // As the form's save refuses them: a sale's contract duration on a rental, a rental's rent dates on a sale.
    if (o.dealType != null) {
      const foreign: readonly string[] = o.dealType === DEAL_TYPE_RENTAL ? DEAL_SALE_ONLY : DEAL_RENTAL_ONLY;
      for (const n of foreign) if (o[n] != null && !r.errors.has(n)) r.errors.set(n, t(o.dealType === DEAL_TYPE_RENTAL ? 'deals.saleOnly' : 'deals.rentalOnly'));
    }
    for (const [a, z] of DEAL_RANGES) {
      const from = o[a] as string | null | undefined;
      const till = o[z] as string | null | undefined;
      if (from && till && till < from && !r.errors.has(a) && !r.errors.has(z)) r.errors.set(z, t('deals.range'));
    }
  }

  // The deals already stored for these properties, with their buyers or tenants.
  const propIds = [...new Set(rows.map((r) => r.deal?.objectId).filter((n): n is number => n !== undefined))];
  type Buyer = { id: number; name: string; nameKeys: string[] };
  // Each deal's buyers or tenants, and its other people as "relation:account" (an agent, a lawyer, a notary).
  const stored = new Map<number, (Row & { id: number; buyers: Buyer[]; people: Set<string> })[]>();
  if (propIds.length) {
    const found = (await db.select().from(deals).where(inArray(deals.objectId, propIds)).orderBy(deals.id)) as unknown as (Row & { id: number; objectId: number })[];
    const buyers = found.length
      ? await db
          .select({ dealId: dealParties.dealId, relation: dealParties.relation, id: dealParties.accountId, name: accounts.displayName, lastName: accounts.lastName, firstName: accounts.firstName, middleName: accounts.middleName })
          .from(dealParties)
          .innerJoin(accounts, eq(accounts.id, dealParties.accountId))
          .where(and(inArray(dealParties.dealId, found.map((d) => d.id)), inArray(dealParties.relation, [DEAL_RELATION.buyer, DEAL_RELATION.lawer, DEAL_RELATION.notary, DEAL_RELATION.assigned])))
      : [];
    const buyerOf = (b: (typeof buyers)[number]): Buyer => ({ id: b.id, name: b.name ?? '', nameKeys: personNameKeys(b.lastName, b.firstName, b.middleName) });
    for (const d of found) {
      const mine = buyers.filter((b) => b.dealId === d.id);
      const people = new Set(mine.map((b) => `${b.relation}:${b.id}`));
      stored.set(d.objectId, [...(stored.get(d.objectId) ?? []), { ...d, buyers: mine.filter((b) => b.relation === DEAL_RELATION.buyer).map(buyerOf), people }]);
    }
  }
  // Named by name alone: the row's own property's stored buyer or tenant of that name is this client;
  // with none there, the one account of that name among the file's properties' buyers, if only one
  // (two people of one name on two properties stay two). Rows left without one are linked as a new
  // person by their name afterwards (linkRows).
  const byName = (r: ReadRow) => r.hasPerson && !r.existing && !r.keys.length && r.nameKey !== null;
  const buyersNamed = new Map<string, Map<number, Buyer>>();
  for (const list of stored.values()) for (const d of list) for (const b of d.buyers) for (const k of b.nameKeys) buyersNamed.set(k, (buyersNamed.get(k) ?? new Map()).set(b.id, b));
  const knownOf = new Map<number, Buyer>();
  for (const r of rows) {
    if (r.errors.size || !r.deal || !byName(r)) continue;
    const own = (stored.get(r.deal.objectId) ?? []).flatMap((d) => d.buyers).find((b) => b.nameKeys.includes(r.nameKey!));
    const named = [...(buyersNamed.get(r.nameKey!)?.values() ?? [])];
    const known = own ?? (named.length === 1 ? named[0] : undefined);
    if (known) knownOf.set(r.row, known);
  }
  const inFile = new Map<string, number>();
  for (const r of rows) {
    if (r.errors.size || !r.deal) continue;
    const given = columns.filter(({ field }) => r.object[field.name] != null && r.object[field.name] !== '');
    const rowKey = dealKey(given, r.object);
    const onProperty = stored.get(r.deal.objectId) ?? [];
    const known = byName(r) ? knownOf.get(r.row) : undefined;
    if (known) r.existing = { id: known.id, name: known.name };
    const client = r.existing?.id;
    const hasClient = (d: { buyers: Buyer[] }) => client !== undefined && d.buyers.some((b) => b.id === client);
    // The agent, lawyer and notary the row names are the stored deal's too (an empty cell says nothing):
    // a name is, when one of its accounts is (the deal may have an unmarked namesake of the one taken).
    const hasPeople = (d: { people: Set<string> }) => (r.partyNames ?? []).every((g) => g.ids.some((id) => d.people.has(`${g.relation}:${id}`)));
    const sameDeal = onProperty.filter((d) => (!r.hasPerson || hasClient(d)) && dealKey(given, d) === rowKey);
    const same = sameDeal.find(hasPeople);
    if (same) {
      r.dealId = same.id;
      r.existing = { id: same.id, name: t('imports.dealStored', { id: same.id }) };
      continue;
    }
    // The same deal whose agent, lawyer or notary was changed in the CRM since: not a second deal (a
    // genuinely new one of the same client and values, a renewed lease, is added in the form).
    const otherPeople = sameDeal[0];
    if (otherPeople) {
      r.dealId = otherPeople.id;
      r.existing = { id: otherPeople.id, name: t('imports.dealStoredOtherPeople', { id: otherPeople.id }) };
      continue;
    }
    // The client's deal of this type on this property moved to another stage in the CRM: not a second
    // deal. An open one whatever its values; a closed or cancelled one only when every other cell the
    // row fills is the same (else it is history, and a new rental of the same tenant is a new deal).
    const open = (d: Row) => ![DEAL_STAGE_CLOSED, DEAL_STAGE_CANCELLED].includes(Number(d.dealStage));
    const butStage = given.filter(({ field }) => field.name !== 'dealStage');
    const sameButStage = (d: Row) => dealKey(butStage, d) === dealKey(butStage, r.object);
    const moved =
      r.hasPerson && r.object.dealStage != null
        ? onProperty.find((d) => hasClient(d) && Number(d.dealType) === Number(r.object.dealType) && Number(d.dealStage) !== Number(r.object.dealStage) && (open(d) || sameButStage(d)))
        : undefined;
    if (moved) {
      r.dealId = moved.id;
      r.existing = { id: moved.id, name: t('imports.dealStoredOtherStage', { id: moved.id, stage: t(Number(moved.dealStage) === 2 ? `deals.stage.${Number(moved.dealType) === DEAL_TYPE_RENTAL ? 'rental' : 'sale'}.2` : `deals.stage.${String(moved.dealStage)}`) }) };
      continue;
    }
    const person = !r.hasPerson ? '-' : r.existing ? `a${r.existing.id}` : `r${r.sameAs ?? r.row}`;
    const key = `${r.deal.objectId}|${person}|${dealKey(columns, r.object)}`;
    const earlier = inFile.get(key);
    if (earlier !== undefined) r.errors.set('', t('imports.sameDealAsRow', { row: earlier }));
    else inFile.set(key, r.row);
  }
}

/**
 * Makes the deals of the rows taken as the deal form's save makes them (storeDeal): the property,
 * its owners as sellers or landlords, the client as buyer or tenant, every field the row fills.
 * Each is in the action log as a deal made by hand is, naming the import; closing one marks the
 * property sold or rented and counts it for its specialists, as a save does.
 */
export async function insertDeals(app: FastifyInstance, tx: Tx, caller: Caller, culture: TCulture, importId: number, taken: ReadRow[], accountOfRow: Map<number, number>): Promise<number[]> {
  const t = (key: string, params?: Record<string, string | number>) => app.translator.t(culture, key, params);
  const ids: number[] = [];
  for (const r of taken) {
    // Every row taken has its property; a client to come from a row left out is a fault here, not a deal without one.
    if (!r.deal) throw new Error(`import ${importId}: row ${r.row} has no property`);
    const client = accountOfRow.get(r.row);
    if (r.hasPerson && client === undefined) throw new Error(`import ${importId}: row ${r.row} has no client`);
    const fields = Object.fromEntries(Object.entries(r.object).filter(([k, v]) => k !== 'referenceNumber' && v != null));
    const body = {
      ...fields,
      objectId: r.deal.objectId,
      accounts: [
        ...r.deal.ownerIds.map((accountId) => ({ accountId, relation: DEAL_RELATION.seller })),
        ...(client === undefined ? [] : [{ accountId: client, relation: DEAL_RELATION.buyer }]),
        ...(r.parties ?? []),
      ],
    } as TDealUpdate;
    const { id } = await storeDeal(app, tx, caller, body, t, culture, { importId });
    ids.push(id);
  }
  return ids;
}
