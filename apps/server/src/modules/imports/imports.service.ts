import crypto from 'node:crypto';
import fs from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import {
  OWNER_RELATION,
  type TCulture,
  type TImportCounts,
  type TImportKind,
  type TImportPreviewAnswer,
  type TImportPreviewRow,
  type TImportRequest,
  type TImportRunAnswer,
  type TImportRunRequest,
  type TImportUploadAnswer,
  IMPORT_CELLS_MAX,
  IMPORT_COLUMNS_MAX,
  IMPORT_DEAL_ROWS_MAX,
  IMPORT_KINDS,
  IMPORT_ROWS_MAX,
} from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { accounts, imports, locations, objectAccounts, objects } from '../../db/schema/index.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { logAction } from '../../lib/audit.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import { loadExcel } from '../../lib/excel.ts';
import type { Caller } from '../../plugins/auth.ts';
import type { FieldContext } from '../fields/field-registry.ts';
import { checkObjectRules } from '../objects/objects.rules.ts';
import { parentTypeOf } from '../objects/objects.options.ts';
import { fieldLabel, guessMapping, importFields, normalizeHeader, TEMPLATE_FIELDS, type ImportField } from './imports.fields.ts';
import { insertMandates, readMandateRows } from './imports.mandates.ts';
import { checkLeadRanges, findSameLeads, insertLeads } from './imports.leads.ts';
import { findDeals, findParties, insertDeals } from './imports.deals.ts';
import { CellError, emailKey, judge, loadLookups, namedAs, personNameKeys, phoneKey, readCell, readContacts, type ReadRow } from './imports.cells.ts';
import { CELL_LENGTH_MAX, type SheetRow } from '../../lib/sheet-read.ts';
import { readSheet } from '../../lib/sheet-reader.ts';
import { dropScratch, readUploadForm, type ReceivedFile } from '../../lib/upload-form.ts';


/** An upload not imported within a day is dropped (with the next upload). */
const UPLOAD_KEPT_HOURS = 24;
/** Rows written per insert statement. */
const BATCH = 500;

/** Today's date in the agency's time zone (an imported lead starts on it unless its row says). */
const todayIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/** What an uploaded workbook may unpack to: a sheet of IMPORT_CELLS_MAX cells is some tens of megabytes of XML. */
const XLSX_UNPACKED_MAX = 64 * 1024 * 1024;

/** Reads the multipart body (the `kind` field, then one file) into a scratch file the caller removes. */
async function readUpload(app: FastifyInstance, req: FastifyRequest): Promise<{ kind: TImportKind; fileName: string; file: ReceivedFile }> {
  const { fields, files } = await readUploadForm(app, req, {
    fileMax: app.config.uploadMaxBytes,
    requestMax: app.config.uploadMaxBytes,
    maxFiles: 1,
    keepField: (name) => name === 'kind',
    tooMany: () => badRequest('imports.oneFile'),
  });
  const file = files[0];
  if (!IMPORT_KINDS.includes(fields.kind as TImportKind)) {
    await dropScratch(files);
    throw badRequest('imports.kindRequired');
  }
  if (!file) throw badRequest('files.noFiles');
  return { kind: fields.kind as TImportKind, fileName: file.userName.slice(0, 255), file };
}

/** The SHA-256 of a file, read as it streams. */
async function fileHash(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const fieldList = (app: FastifyInstance, culture: TCulture, kind: TImportKind) =>
  importFields(kind).map((f) => ({ key: f.key, label: fieldLabel(app.translator.t.bind(app.translator), culture, f), required: f.required }));

/** The first rows of a sheet looked at for its headers (a title, a filter's and a totals' lines may come first). */
const HEADER_ROWS_LOOKED_AT = 20;
/** Cells of a row that name a field for it to be the header row (a title line names one at most). */
const HEADER_CELLS_MIN = 2;

/**
 * The header row of a sheet's rows: among its first rows, the one where the most cells name a field
 * of the kind (as the mapping would propose them; the first of equals), at least HEADER_CELLS_MIN
 * and more than half its non-empty cells (a filter's "Agent: | Eleni | Stage: | All" line, or a data
 * row with two field-like words, is not), with a row under it; with none such, the row naming the
 * most under title lines only (a header naming two of its five columns under a title); else its first row. The cells are the rows under
 * it, every row as wide as the widest, with their numbers in the sheet.
 */
export function findTable(t: Parameters<typeof guessMapping>[0], kind: TImportKind, rows: readonly SheetRow[], rowsMax: number): { headerRow: number; headers: string[]; cells: string[][]; rowNumbers: number[] } {
  const text = (r: SheetRow) => Array.from(r.cells, (c) => (c ?? '').replace(/\u00a0/g, ' ').trim());
  if (!rows.length) throw badRequest('imports.empty');
  // The best row whose named cells are more than half its filled ones; else the best naming enough.
  const strict = { at: -1, named: 0 };
  const loose = { at: -1, named: 0 };
  // The most cells a row above holds: a header under title and filter lines only (one or two cells
  // each, or labels and values) may name fewer.
  let above = 0;
  rows.slice(0, HEADER_ROWS_LOOKED_AT).forEach((r, i) => {
    const cells = text(r);
    const named = guessMapping(t, kind, cells).filter(Boolean).length;
    const filled = cells.filter(Boolean).length;
    // A filter's line of labels and values ("Agent: | Eleni", half its cells or more ending in ':') is
    // neither a header nor a table row.
    const labels = cells.filter((c) => c.endsWith(':')).length * 2 >= filled && filled > 0;
    if (named >= HEADER_CELLS_MIN && i < rows.length - 1 && !labels) {
      if (named * 2 > filled && named > strict.named) Object.assign(strict, { at: i, named });
      if (above <= 2 && i > 0 && named > loose.named) Object.assign(loose, { at: i, named });
    }
    if (!labels) above = Math.max(above, filled);
  });
  const at = strict.at >= 0 ? strict.at : Math.max(loose.at, 0);
  const body = rows.slice(at + 1);
  if (!body.length) throw badRequest('imports.noRows');
  if (body.length > rowsMax) throw badRequest('imports.tooManyRows', { max: rowsMax });
  const width = Math.max(...rows.slice(at).map((r) => r.cells.length));
  const fit = (r: SheetRow) => {
    const cells = text(r);
    return Array.from({ length: width }, (_, i) => cells[i] ?? '');
  };
  return { headerRow: rows[at]!.n, headers: fit(rows[at]!), cells: body.map(fit), rowNumbers: body.map((r) => r.n) };
}

/** POST /api/import/upload: reads the file, keeps its cells under a new token, proposes a mapping. */
export async function uploadImport(app: FastifyInstance, req: FastifyRequest, caller: Caller, culture: TCulture): Promise<TImportUploadAnswer> {
  const { kind, fileName, file } = await readUpload(app, req);
  const rowsMax = kind === 'deals' ? IMPORT_DEAL_ROWS_MAX : IMPORT_ROWS_MAX;
  let sheet: { rows: SheetRow[] };
  let hash: string;
  try {
    sheet = await readSheet(file.tmp, {
      shape: 'rows',
      // The rows above the header are read too.
      rowsMax: rowsMax + HEADER_ROWS_LOOKED_AT,
      columnsMax: IMPORT_COLUMNS_MAX,
      cellsMax: IMPORT_CELLS_MAX,
      unpackedMax: XLSX_UNPACKED_MAX,
      cellLengthMax: CELL_LENGTH_MAX,
      notASpreadsheet: 'imports.notASpreadsheet',
      keys: { oldExcel: 'imports.oldExcel' },
    });
    hash = await fileHash(file.tmp);
  } catch (e) {
    // The reading stops past the kind's maximum and the rows looked at for the header: the message gives the kind's own.
    if (e instanceof AppError && e.code === 'imports.tooManyRows') throw badRequest('imports.tooManyRows', { max: rowsMax });
    throw e;
  } finally {
    await dropScratch([file]);
  }
  const t = app.translator.t.bind(app.translator);
  const table = findTable(t, kind, sheet.rows, rowsMax);
  const token = crypto.randomBytes(24).toString('base64url');
  await app.db.delete(imports).where(and(isNull(imports.importedOn), lt(imports.createdOn, new Date(Date.now() - UPLOAD_KEPT_HOURS * 3600_000))));
  await app.db.insert(imports).values({
    tokenHash: hashToken(token),
    kind,
    fileName,
    fileHash: hash,
    headers: table.headers,
    cells: table.cells,
    headerRow: table.headerRow,
    rowNumbers: table.rowNumbers,
    createdBy: caller.user.id,
  });
  return {
    token,
    kind,
    fileName,
    headers: table.headers,
    headerRow: table.headerRow,
    mapping: guessMapping(t, kind, table.headers),
    fields: fieldList(app, culture, kind),
    rowCount: table.cells.length,
  };
}

/** The upload of a token, if it is the caller's (another person's token is as good as none). */
async function findUpload(db: Db | Tx, token: string, caller: Caller, lock = false) {
  const q = db.select().from(imports).where(and(eq(imports.tokenHash, hashToken(token)), eq(imports.createdBy, caller.user.id)));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw new AppError(404, 'imports.uploadGone');
  return row;
}

// ---------------------------------------------------------------------------------------------
// Reading the rows (the cells: imports.cells.ts)

/**
 * Every row of an upload read with a mapping: values as stored, errors per field in the reader's
 * language, and the account already in the CRM with the row person's phone or e-mail. As many
 * queries whatever the number of rows: the places, the phones, the e-mails; for leads, the clients
 * named by name alone and the leads stored; for deals, the agents, the lawyers and notaries, the
 * properties, the deals stored and their people.
 */
async function readRows(app: FastifyInstance, db: Db | Tx, culture: TCulture, caller: Caller, kind: TImportKind, cells: string[][], mapping: string[], numbers: { headerRow: number; rowNumbers: number[] | null }, lock = false) {
  const all = importFields(kind);
  const byKey = new Map(all.map((f) => [f.key, f]));
  const columns: { index: number; field: ImportField }[] = [];
  const seen = new Set<string>();
  mapping.forEach((key, index) => {
    if (!key) return;
    const field = byKey.get(key);
    if (!field) throw badRequest('imports.unknownField', { field: key });
    if (seen.has(key)) throw badRequest('imports.fieldTwice', { field: fieldLabel(app.translator.t.bind(app.translator), culture, field) });
    seen.add(key);
    columns.push({ index, field });
  });
  // The whole name in one column stands for the two names (and goes with neither of them).
  const prefix = kind === 'owners' || kind === 'leads' || kind === 'deals' ? '' : 'owner.';
  const fullNameKey = `${prefix}fullName`;
  const hasFullName = seen.has(fullNameKey);
  if (hasFullName && (seen.has(`${prefix}lastName`) || seen.has(`${prefix}firstName`))) throw badRequest('imports.fullNameAndNames');
  const missing = all.filter((f) => f.required && !seen.has(f.key) && !(hasFullName && (f.name === 'lastName' || f.name === 'firstName'))).map((f) => f.key);
  const nameDefs = new Map(importFields('owners').filter((f) => f.name === 'lastName' || f.name === 'firstName').map((f) => [f.name, f]));
  const t = (key: string, params?: Record<string, string | number>) => app.translator.t(culture, key, params);
  const ctx: FieldContext = { db, culture, t, timeZone: app.config.timeZone, user: caller.user };
  const lookups = await loadLookups(app, db, culture, columns.map((c) => c.field));
  // Each row numbered as the sheet numbers it.
  const rowNumberOf = (i: number) => numbers.rowNumbers?.[i] ?? numbers.headerRow + 1 + i;
  if (kind === 'mandates') return { rows: await readMandateRows(db, culture, ctx, app.translator.t.bind(app.translator), columns, cells, lookups, rowNumberOf), columns, missing };

  const rows: ReadRow[] = [];
  for (let i = 0; i < cells.length; i++) {
    const cellsOfRow = cells[i]!;
    const r: ReadRow = { row: rowNumberOf(i), account: {}, object: {}, errors: new Map(), keys: [], nameKey: null, hasPerson: false, existing: null, sameAs: null, mandate: null, shown: {} };
    for (const { index, field } of columns) {
      const raw = (cellsOfRow[index] ?? '').trim();
      const target = field.target === 'account' ? r.account : r.object;
      try {
        if (field.target === 'party') {
          // A deal's agent, lawyer or notary, found by name with the others' after the rows are read (imports.deals.ts).
          if (raw) (r.partyCells ??= {})[field.key] = raw;
        } else if (field.target === 'deal' && field.name === 'referenceNumber') {
          // The property, found with the others' after the rows are read (imports.deals.ts).
          if (!raw) throw new CellError('validation.required');
          if (!/^#?\s*\d{1,9}$/.test(raw)) throw new CellError('imports.unknownProperty', { value: raw });
          r.object.referenceNumber = raw;
        } else if (field.fullName) {
          if (raw) {
            const [last = '', ...rest] = raw.split(/\s+/);
            if (!rest.length) throw new CellError('imports.fullNameOneWord', { value: raw });
            target.lastName = await judge(ctx, field.key, nameDefs.get('lastName')!, last, target);
            target.firstName = await judge(ctx, field.key, nameDefs.get('firstName')!, rest.join(' '), target);
          }
        } else if (field.name === 'phone' || field.name === 'email') {
          const list = raw ? readContacts(field.name, raw) : [];
          target[field.name === 'phone' ? 'phones' : 'emails'] = list;
          for (const p of list) {
            const k = field.name === 'phone' ? phoneKey(p) : emailKey(p);
            if (k) r.keys.push(`${field.name}:${k}`);
          }
        } else {
          const value = readCell(field, raw, lookups);
          target[field.name] = ['location', 'select', 'multi-select', 'flag-enum', 'boolean', 'boolNullable'].includes(field.def.type)
            ? value
            : await judge(ctx, field.key, field, value, target);
          if ((field.def.type === 'multi-select' || field.def.type === 'flag-enum') && value === null) target[field.name] = [];
          // A lead's choice read by its name is shown by its name in the reader's language (a source: as the account is named).
          if (field.choices && value != null) r.shown![field.key] = shownChoice(app, culture, field, value, raw);
          if (field.def.type === 'boolean' && value === null) delete target[field.name];
        }
      } catch (e) {
        if (!(e instanceof CellError)) throw e;
        r.errors.set(field.key, t(e.code, e.params));
      }
    }
    // A lead's row always names its client; a deal's may (its buyer or tenant).
    const person = kind === 'leads' ? true : kind === 'owners' || kind === 'deals' ? columns.some((c) => c.field.target === 'account' && (cellsOfRow[c.index] ?? '').trim() !== '') : columns.some((c) => c.field.key.startsWith('owner.') && (cellsOfRow[c.index] ?? '').trim() !== '');
    r.hasPerson = person;
    // A person has both names (as the account's form requires).
    if (person) {
      for (const n of ['lastName', 'firstName']) {
        const key = hasFullName ? fullNameKey : `${prefix}${n}`;
        if (r.account[n] == null && !r.errors.has(key)) r.errors.set(key, t('validation.required'));
      }
      if (r.account.lastName && r.account.firstName) r.nameKey = `${normalizeHeader(String(r.account.lastName))}|${normalizeHeader(String(r.account.firstName))}`;
    }
    if (kind === 'leads') checkLeadRanges(t, r);
    if (kind === 'objects') {
      const o = r.object;
      if (o.objectSubTypeId != null && o.subTypeObjectTypeId == null) o.subTypeObjectTypeId = parentTypeOf(o.objectSubTypeId as number) ?? null;
      if (!r.errors.size) {
        try {
          checkObjectRules(o, new Set(Object.keys(o)));
        } catch (e) {
          if (!(e instanceof AppError) || !e.fieldErrors) throw e;
          const [field, list] = Object.entries(e.fieldErrors)[0]!;
          r.errors.set(field, t(list[0]!.code, list[0]!.params));
        }
      }
      if (!Object.values(o).some((v) => v != null && !(Array.isArray(v) && !v.length)) && !r.errors.size) r.errors.set('', t('imports.emptyProperty'));
    }
    rows.push(r);
  }

  // The accounts already in the CRM with these phones and e-mails: one query each.
  const phoneKeys = [...new Set(rows.flatMap((r) => r.keys.filter((k) => k.startsWith('phone:')).map((k) => k.slice(6))))];
  const emailKeys = [...new Set(rows.flatMap((r) => r.keys.filter((k) => k.startsWith('email:')).map((k) => k.slice(6))))];
  const found = new Map<string, { id: number; name: string }>();
  if (phoneKeys.length) {
    const res = await db.execute(sql`select distinct on (k) k, a.id, a.display_name as name from accounts a cross join lateral unnest(a.phones) p
      cross join lateral (select right(regexp_replace(p, '\\D', '', 'g'), 10) as k) x
      where length(regexp_replace(p, '\\D', '', 'g')) >= 8 and k = any(${sql.param(phoneKeys)}::text[]) order by k, a.id`);
    for (const r of res.rows as { k: string; id: number; name: string }[]) found.set(`phone:${r.k}`, { id: Number(r.id), name: r.name });
  }
  if (emailKeys.length) {
    const res = await db.execute(sql`select distinct on (k) k, a.id, a.display_name as name from accounts a cross join lateral unnest(a.emails) e
      cross join lateral (select lower(btrim(e)) as k) x where k = any(${sql.param(emailKeys)}::text[]) order by k, a.id`);
    for (const r of res.rows as { k: string; id: number; name: string }[]) found.set(`email:${r.k}`, { id: Number(r.id), name: r.name });
  }
  // The person of a row: an account in the CRM, or one made by an earlier row of the file.
  for (const r of rows) {
    if (!r.hasPerson) continue;
    r.existing = r.keys.map((k) => found.get(k)).find(Boolean) ?? null;
    // The client's cell that found the account (a deal's client who owns the property is an error there).
    r.foundBy = r.existing ? (r.keys.find((k) => found.get(k) === r.existing)?.startsWith('phone:') ? 'phone' : 'email') : undefined;
    // Found by a phone or an e-mail alone (an office's shared line, a spouse's address): when the row
    // names someone else, the preview says so beside the account it would use.
    if (r.existing && r.account.lastName && !namesTheSame(r.existing.name, String(r.account.lastName))) {
      const given = [r.account.lastName, r.account.firstName].filter(Boolean).join(' ');
      r.existing = { ...r.existing, name: t('imports.foundUnderOtherName', { name: r.existing.name, given }) };
    }
  }
  if (kind === 'leads') await findClientsByName(db, t, rows);
  linkRows(rows, kind, t);
  if (kind === 'leads') await findSameLeads(db, t, rows, columns);
  if (kind === 'deals') await findParties(db, t, rows, columns);
  if (kind === 'deals') await findDeals(db, culture, t, rows, columns, lock);
  // Linked again once every row's error is known (a lead's or a deal's found above): a row left out
  // takes no later row of its person with it.
  if (kind === 'leads' || kind === 'deals') linkRows(rows, kind, t);
  return { rows, columns, missing };
}

/**
 * A lead's client named by name alone (no phone, no e-mail in the row): the client in the CRM with
 * that last and first name (letters compared without accents and case, as the file's own rows are
 * linked) and no phone or e-mail either, when only one has it, so a file imported again makes no
 * second client. The preview says it was found by name. Two such clients of one name stay apart: the
 * row makes a new one. One query, on the accounts' display names in search form (migration 0129).
 */
async function findClientsByName(db: Db | Tx, t: (key: string, params?: Record<string, string | number>) => string, rows: ReadRow[]) {
  const byName = rows.filter((r) => r.hasPerson && !r.existing && !r.keys.length && r.nameKey !== null && !r.nameKey.startsWith('|'));
  if (!byName.length) return;
  // The clients named as the row ("Last First"), on their indexes (migration 0129).
  const names = [...new Set(byName.map((r) => `${String(r.account.lastName).trim()} ${String(r.account.firstName).trim()}`))];
  const res = await db.execute(sql`select a.id, a.display_name as name, a.last_name as last, a.first_name as first, a.middle_name as middle from accounts a
    where ${namedAs(names)}
      and a.is_client and coalesce(cardinality(a.phones), 0) = 0 and coalesce(cardinality(a.emails), 0) = 0`);
  // By the display name first («Onlyname Μαρία» is not «Onlyname Μαρία Γεωργίου»), then by last and first name.
  const [exact, found] = [new Map<string, { id: number; name: string }[]>(), new Map<string, { id: number; name: string }[]>()];
  for (const a of res.rows as { id: number; name: string; last: string; first: string; middle: string | null }[]) {
    const one = { id: Number(a.id), name: a.name };
    exact.set(normalizeHeader(a.name ?? ''), [...(exact.get(normalizeHeader(a.name ?? '')) ?? []), one]);
    for (const k of personNameKeys(a.last, a.first, a.middle)) found.set(k, [...(found.get(k) ?? []), one]);
  }
  for (const r of byName) {
    const same = exact.get(normalizeHeader(`${String(r.account.lastName).trim()} ${String(r.account.firstName).trim()}`)) ?? [];
    const list = same.length ? same : (found.get(r.nameKey!) ?? []);
    if (list.length === 1) r.existing = { id: list[0]!.id, name: t('imports.foundByName', { name: list[0]!.name }) };
  }
}

/**
 * Which earlier row's new account a row's person is (by phone, e-mail, or else both names). A row
 * with an error or left out (its lead or deal is stored) makes no account, so none is its.
 */
function linkRows(rows: ReadRow[], kind: TImportKind, t: (key: string, params?: Record<string, string | number>) => string) {
  const firstRowOf = new Map<string, number>();
  for (const r of rows) {
    r.sameAs = null;
    if (!r.hasPerson) continue;
    // A row with errors is left out (or refuses the file): later rows of its person are not its.
    if (r.existing || (r.errors.size && kind !== 'owners') || r.leadId !== undefined || r.dealId !== undefined) continue;
    const keys = r.keys.length ? r.keys : r.nameKey && kind !== 'owners' ? [`name:${r.nameKey}`] : [];
    const earlier = keys.map((k) => firstRowOf.get(k)).find((n) => n !== undefined);
    if (earlier !== undefined) {
      if (kind === 'owners') r.errors.set(r.keys.some((k) => k.startsWith('phone:')) ? 'phone' : 'email', t('imports.sameAsRow', { row: earlier }));
      else r.sameAs = earlier;
    } else for (const k of keys) firstRowOf.set(k, r.row);
  }
}

/** Whether an account's name has every word of the last name a row gives, letters compared without accents and case. */
function namesTheSame(accountName: string, lastName: string): boolean {
  const have = new Set(normalizeHeader(accountName).split(' '));
  return normalizeHeader(lastName).split(' ').every((w) => have.has(w));
}

/** A lead's choice by its name: the stage, the priority, the features in the reader's language; a source as the cell names it. */
function shownChoice(app: FastifyInstance, culture: TCulture, f: ImportField, value: unknown, raw: string): string {
  const t = (k: string) => app.translator.t(culture, k);
  if (f.choices === 'lead.stage') return t(`leads.stage.${String(value)}`);
  if (f.choices === 'lead.priority') return t(`leads.priority.${String(value)}`);
  if (f.choices === 'lead.features') return (value as string[]).map((v) => t(`fields.object.${v}`)).join(', ');
  if (f.choices === 'deal.type') return t(`deals.type.${String(value)}`);
  if (f.choices === 'deal.stage') return t(`deals.stage.${String(value)}`);
  return raw;
}

function counts(rows: ReadRow[], kind: TImportKind, duplicates: 'link' | 'skip', skipErrors: boolean): TImportCounts & { taken: ReadRow[] } {
  const c = { owners: 0, objects: 0, mandates: 0, leads: 0, deals: 0, clients: 0, linked: 0, skipped: 0, withErrors: 0 };
  const taken: ReadRow[] = [];
  for (const r of rows) {
    if (r.errors.size) {
      c.withErrors++;
      if (skipErrors) c.skipped++;
      continue;
    }
    // A mandate already in the CRM is left out whatever the choice: there is nothing to link.
    // So is a lead already stored for the same client (imports.leads.ts), and a deal already stored (imports.deals.ts).
    if (r.existing && (duplicates === 'skip' || kind === 'mandates' || r.leadId !== undefined || r.dealId !== undefined)) {
      c.skipped++;
      continue;
    }
    taken.push(r);
    if (r.existing) c.linked++;
    else if (r.hasPerson && r.sameAs === null) c[kind === 'leads' || kind === 'deals' ? 'clients' : 'owners']++;
    if (kind === 'objects') c.objects++;
    if (kind === 'leads') c.leads++;
    if (kind === 'mandates') c.mandates++;
    if (kind === 'deals') c.deals++;
  }
  return { ...c, taken };
}

/** A number as the agency writes it: comma decimals, and (for prices, areas, distances) space thousands. */
function shownNumber(n: number, group: boolean, decimals?: number): string {
  const [int = '0', frac] = (decimals === undefined ? String(Math.abs(n)) : Math.abs(n).toFixed(decimals)).split('.');
  return `${n < 0 ? '-' : ''}${group ? int.replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0') : int}${frac ? `,${frac}` : ''}`;
}

/** A stored value as the preview shows it. */
function shownValue(app: FastifyInstance, culture: TCulture, f: ImportField, v: unknown, lookups: { placeText: Map<number, string> }): string {
  if (v == null) return '';
  const t = (k: string) => app.translator.t(culture, k);
  if (Array.isArray(v)) return f.list ? v.map((x) => t(`objects.list.${f.list}.${x}`)).join(', ') : v.join('; ');
  if (typeof v === 'boolean') return t(v ? 'common.yes' : 'common.no');
  if (f.def.type === 'select' && f.list) return t(`objects.list.${f.list}.${v}`);
  if (f.target === 'account' && f.name === 'gender') return t(`accounts.ui.gender.${String(v)}`);
  if (f.def.type === 'location') return lookups.placeText.get(v as number) ?? String(v);
  if (typeof v === 'number') {
    if (f.def.type === 'currency') return `${shownNumber(v, true, Number.isInteger(v) ? 0 : 2)}\u00a0€`;
    return shownNumber(v, f.def.type === 'area' || f.def.type === 'distance');
  }
  // A day as the agency writes it (31/12/2026; 31.12.2026 in Russian), as the file had it.
  if (f.def.type === 'date' && typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v)) return [v.slice(8, 10), v.slice(5, 7), v.slice(0, 4)].join(culture === 'ru' ? '.' : '/');
  return String(v);
}

/** POST /api/import/preview: the rows as they would be stored, nothing stored. */
export async function previewImport(app: FastifyInstance, body: TImportRequest, caller: Caller, culture: TCulture): Promise<TImportPreviewAnswer> {
  const upload = await findUpload(app.db, body.token, caller);
  if (upload.importedOn) throw alreadyImported(app, upload);
  const kind = upload.kind as TImportKind;
  const { rows, columns, missing } = await readRows(app, app.db, culture, caller, kind, upload.cells, body.mapping, upload);
  const placeIds = [...new Set(rows.map((r) => r.object.locationId).filter((v): v is number => typeof v === 'number'))];
  const placeText = new Map<number, string>();
  if (placeIds.length) {
    const col = culture === 'el' ? locations.textEl : culture === 'ru' ? locations.textRu : locations.textEn;
    for (const p of await app.db.select({ id: locations.id, text: col }).from(locations).where(sql`${locations.id} = any(${sql.param(placeIds)}::int[])`)) placeText.set(p.id, p.text);
  }
  const out: TImportPreviewRow[] = rows.map((r) => {
    const values: Record<string, string> = {};
    for (const { field } of columns) {
      const target = field.target === 'account' ? r.account : r.object;
      const name = field.name === 'phone' ? 'phones' : field.name === 'email' ? 'emails' : field.name;
      values[field.key] = r.errors.has(field.key) ? '' : (r.shown?.[field.key] ?? shownValue(app, culture, field, target[name], { placeText }));
    }
    return { row: r.row, values, errors: Object.fromEntries(r.errors), existing: r.existing };
  });
  const { taken: _taken, ...c } = counts(rows, kind, body.duplicates, false);
  const [before] = await app.db
    .select({ on: imports.importedOn, by: imports.importedByName })
    .from(imports)
    .where(and(eq(imports.fileHash, upload.fileHash), sql`${imports.importedOn} is not null`))
    .orderBy(sql`${imports.importedOn} desc`)
    .limit(1);
  return {
    rows: out,
    counts: c,
    missing,
    headerRow: upload.headerRow,
    importedBefore: before?.on ? { on: toLocalDateTime(before.on, app.config.timeZone) ?? '', by: before.by ?? '' } : null,
  };
}

function alreadyImported(app: FastifyInstance, upload: typeof imports.$inferSelect) {
  return new AppError(409, 'imports.alreadyImported', { on: (toLocalDateTime(upload.importedOn, app.config.timeZone) ?? '').replace('T', ' ').slice(0, 16), by: upload.importedByName ?? '' });
}

/**
 * POST /api/import/run: the rows chosen, in one transaction. The upload is locked and marked
 * imported first, so a second click or a reload waits for the first and is then refused (409).
 * Refused (400, nothing stored) when a required field has no column, or rows have errors and
 * "skip rows with errors" is not ticked.
 */
export async function runImport(app: FastifyInstance, body: TImportRunRequest, caller: Caller, culture: TCulture): Promise<TImportRunAnswer> {
  return app.db.transaction(async (tx) => {
    const upload = await findUpload(tx, body.token, caller, true);
    if (upload.importedOn) throw alreadyImported(app, upload);
    // The same file uploaded again (after a reload, by a colleague) is not imported a second time:
    // its properties would be there twice. Two uploads of it imported at once wait for each other here.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`import-file:${upload.fileHash}`}))`);
    const [before] = await tx
      .select({ importedOn: imports.importedOn, importedByName: imports.importedByName })
      .from(imports)
      .where(and(eq(imports.fileHash, upload.fileHash), sql`${imports.importedOn} is not null`))
      .limit(1);
    if (before) throw new AppError(409, 'imports.fileImportedBefore', { on: (toLocalDateTime(before.importedOn, app.config.timeZone) ?? '').replace('T', ' ').slice(0, 16), by: before.importedByName ?? '' });
    const kind = upload.kind as TImportKind;
    // Deal imports run one after another: the second reads the clients and deals the first made (the
    // same row in two files makes one deal), and two never wait on each other's properties.
    if (kind === 'deals') await tx.execute(sql`select pg_advisory_xact_lock(hashtext('import-deals'))`);
    const { rows, missing } = await readRows(app, tx, culture, caller, kind, upload.cells, body.mapping, upload, true);
    if (missing.length) {
      const labels = missing.map((k) => fieldLabel(app.translator.t.bind(app.translator), culture, importFields(kind).find((f) => f.key === k)!));
      throw badRequest('imports.requiredNotMapped', { fields: labels.join(', ') });
    }
    const c = counts(rows, kind, body.duplicates, body.skipErrors);
    if (c.withErrors && !body.skipErrors) throw badRequest('imports.rowsWithErrors', { count: c.withErrors });
    if (!c.taken.length) throw badRequest('imports.nothingToImport');
    const now = new Date();

    // New accounts (owners), in batches; a property row sharing an earlier row's owner takes that one.
    const newPeople = c.taken.filter((r) => r.hasPerson && !r.existing && r.sameAs === null);
    const accountOfRow = new Map<number, number>();
    for (let i = 0; i < newPeople.length; i += BATCH) {
      const part = newPeople.slice(i, i + BATCH);
      const made = await tx
        .insert(accounts)
        .values(
          part.map((r) => ({
            ...(r.account as object),
            firstName: r.account.firstName as string,
            lastName: r.account.lastName as string,
            // A lead's person is a client (as a lead added for an account makes it one), so is a deal's buyer or tenant; an owner's an owner.
            ...(kind === 'leads' || kind === 'deals' ? { isClient: true, isClientDate: now } : { isOwner: true, isOwnerDate: now }),
            createdBy: caller.user.id,
            modifiedBy: caller.user.id,
          })),
        )
        .returning({ id: accounts.id });
      part.forEach((r, j) => accountOfRow.set(r.row, made[j]!.id));
    }
    for (const r of c.taken) if (r.sameAs !== null) accountOfRow.set(r.row, accountOfRow.get(r.sameAs)!);
    // Accounts already in the CRM become owners (once, as a link does); a lead's, clients.
    const linkedIds = [...new Set(c.taken.filter((r) => r.existing).map((r) => r.existing!.id))];
    if (linkedIds.length && kind === 'leads') {
      const marked = await tx
        .update(accounts)
        .set({ isClient: true, isClientDate: sql`coalesce(${accounts.isClientDate}, now())`, version: sql`${accounts.version} + 1`, modifiedOn: now, modifiedBy: caller.user.id })
        .where(and(sql`${accounts.id} = any(${sql.param(linkedIds)}::int[])`, eq(accounts.isClient, false)))
        .returning({ id: accounts.id });
      // As a lead added for an account logs it: the account became a client.
      for (const a of marked) await logAction(tx, caller.actor, { action: 'Update', entity: 'Account', entityId: a.id, data: { isClient: true, importId: upload.id } });
    } else if (linkedIds.length && kind !== 'deals') {
      // (A deal's client already in the CRM is only named in the deal, as the deal form does.)
      await tx
        .update(accounts)
        .set({ isOwner: true, isOwnerDate: sql`coalesce(${accounts.isOwnerDate}, now())`, version: sql`${accounts.version} + 1`, modifiedOn: now, modifiedBy: caller.user.id })
        .where(and(sql`${accounts.id} = any(${sql.param(linkedIds)}::int[])`, eq(accounts.isOwner, false)));
    }
    for (const r of c.taken) if (r.existing) accountOfRow.set(r.row, r.existing.id);

    // Properties with the next reference numbers (the sequence /Objects/Add takes them from), and their owners.
    const objectIds: number[] = [];
    const references: number[] = [];
    if (kind === 'objects') {
      for (let i = 0; i < c.taken.length; i += BATCH) {
        const part = c.taken.slice(i, i + BATCH);
        const made = await tx
          .insert(objects)
          .values(part.map((r) => ({ ...r.object, active: true, createdBy: caller.user.id, modifiedBy: caller.user.id, createdByAccountId: caller.user.accountId }) as never))
          .returning({ id: objects.id, referenceNumber: objects.referenceNumber });
        const links = part.flatMap((r, j) => {
          objectIds.push(made[j]!.id);
          references.push(made[j]!.referenceNumber);
          const owner = accountOfRow.get(r.row);
          return owner ? [{ objectId: made[j]!.id, accountId: owner, relation: OWNER_RELATION }] : [];
        });
        if (links.length) await tx.insert(objectAccounts).values(links);
      }
    }
    const mandateIds = kind === 'mandates' ? await insertMandates(tx, caller.actor, caller.user.id, upload.id, c.taken) : [];
    const dealIds = kind === 'deals' ? await insertDeals(app, tx, caller, culture, upload.id, c.taken, accountOfRow) : [];
    const leadIds = kind === 'leads' ? await insertLeads(tx, caller.actor, caller.user.id, upload.id, c.taken, accountOfRow, todayIn(app.config.timeZone), BATCH) : [];
    const createdAccounts = [...new Set(newPeople.map((r) => accountOfRow.get(r.row)!))];
    const { taken: _taken, ...result } = c;
    await tx
      .update(imports)
      .set({
        importedOn: now,
        importedByName: caller.actor.name,
        cells: [],
        rowNumbers: null,
        result: { counts: result, accountIds: createdAccounts, linkedAccountIds: linkedIds, objectIds, mandateIds, leadIds, dealIds },
      })
      .where(eq(imports.id, upload.id));
    await logAction(tx, caller.actor, {
      action: 'Import',
      entity: 'Import',
      entityId: upload.id,
      message: upload.fileName,
      data: {
        importId: upload.id,
        fileName: upload.fileName,
        newOwners: result.owners,
        newObjects: result.objects,
        newMandates: result.mandates,
        newLeads: result.leads,
        newDeals: result.deals,
        newClients: result.clients,
        linked: result.linked,
        skipped: result.skipped,
        accountIds: createdAccounts,
        linkedAccountIds: linkedIds,
        objectIds,
        mandateIds,
        leadIds,
        dealIds,
      },
    });
    return { id: upload.id, counts: result };
  });
}

/** GET /api/import/template: an .xlsx whose first row is the headers, in the reader's language. */
export async function importTemplate(app: FastifyInstance, kind: TImportKind, culture: TCulture): Promise<Buffer> {
  const ExcelJS = await loadExcel();
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(app.translator.t(culture, `imports.kind.${kind}`).slice(0, 31));
  const fields = importFields(kind);
  const headers = TEMPLATE_FIELDS[kind].map((k) => fieldLabel(app.translator.t.bind(app.translator), culture, fields.find((f) => f.key === k)!));
  ws.addRow(headers);
  ws.getRow(1).font = { bold: true };
  headers.forEach((h, i) => (ws.getColumn(i + 1).width = Math.max(12, h.length + 4)));
  return Buffer.from(await wb.xlsx.writeBuffer());
}
