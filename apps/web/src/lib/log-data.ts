import type { TFunction } from 'i18next';
import type { TActionLogRow } from '@crm/contract';
import { CULTURES, type TCulture } from '@crm/contract/constants';
import { ACCOUNT_LOG_ENTITIES } from '@crm/contract/office-constants';
import { DEAL_FIELDS } from '@crm/contract/deal-fields';
import { LEAD_FIELDS } from '@crm/contract/lead-fields';
import { OBJECT_FIELDS } from '@crm/contract/object-fields';
import { RESERVATION_FIELDS } from '@crm/contract/reservation-fields';
import { agencyDateTime } from './agency-clock.ts';
import { formatDate, formatDateTime, formatMoney, formatMoney2 } from './format.ts';
import { currentCulture } from './i18n.ts';
import { ACCOUNT, DEAL, LEAD, OBJECT, VIEWING, href } from '@crm/contract/resources';

/**
 * An action-log entry's data (spec 001, 2.12: "JSON shown as a table") as the rows a reader
 * understands: each field under the label its own screen gives it (a property's "Bedrooms", an
 * account's "Last name"), the log's own keys (accountId, ip, imagesOrder…) under actionLog.data.*,
 * and values as words and dates rather than JSON. The stored key stays available as the row's
 * `key` (shown on hover) for whoever needs the raw name.
 */
export type LogDataRow = { key: string; label: string; value: string; parts?: LogDataPart[] };
/**
 * A value that names records (a deal's parties, a lead's client, a viewing's properties, a key's
 * holder before → after): each by what the agent knows it as, a link to it when it still exists,
 * with what it is ("Seller") before it, what was said of it after it (a viewing's result), and
 * what separates it from the one before (", " unless `sep` says " → "). `value` is the same as one text.
 */
export type LogDataPart = { role?: string; text: string; to?: string; note?: string; sep?: string };
/**
 * The records an entry's data names by number, as the server read them with the page, by id:
 * accounts by name (accountNames), properties as "#0042 title" (objectNames), leads by their line
 * (leadNames), deals as "Deal #12", viewings as "Viewing #7 · 12/03/2026, 10:30", sign-ins by
 * their person's name, branches by name (logRefs makes them of the answer). A record deleted
 * since is not among them, and is shown by its number.
 */
export type LogRefs = Partial<Record<RefKind, Record<string, string>>> | undefined;
type RefKind = 'accounts' | 'objects' | 'leads' | 'deals' | 'viewings' | 'users' | 'branches';
/** Where each kind of record opens (a sign-in and a branch have no page of their own). */
const REF_PATH: Partial<Record<RefKind, (id: number) => string>> = {
  accounts: (id) => href(ACCOUNT.screens.view, { id }),
  objects: (id) => href(OBJECT.screens.view, { id }),
  leads: (id) => href(LEAD.screens.view, { id }),
  deals: (id) => href(DEAL.screens.view, { id }),
  viewings: (id) => href(VIEWING.screens.view, { id }),
};
/** The keys of log data that hold a record's number (the same words in every entity's data), by kind; the server reads the same (action-log.service.ts). */
const REF_KEYS: Record<string, RefKind> = {
  accountId: 'accounts',
  keyAccountId: 'accounts',
  objectId: 'objects',
  demandId: 'leads',
  leadId: 'leads',
  dealId: 'deals',
  viewingId: 'viewings',
  userId: 'users',
  branchId: 'branches',
};
const ACCOUNT_ENTITIES = new Set<string>(ACCOUNT_LOG_ENTITIES);
/** The kind of record a key of an entity's data holds by number: an account's sourceId is the account it came through (a booking's is a list's value). */
const refKind = (entity: string, key: string): RefKind | undefined => REF_KEYS[key] ?? (key === 'sourceId' && ACCOUNT_ENTITIES.has(entity) ? 'accounts' : undefined);
/** Lists of numbers: a lead's offered objects. */
const REF_LISTS: Record<string, RefKind> = { objects: 'objects' };
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;
/** A record by what the server read of it, a link to it where it has a page; its number when it is gone. */
function refPart(kind: RefKind, id: number, refs: LogRefs): LogDataPart {
  const text = refs?.[kind]?.[String(id)];
  const path = REF_PATH[kind];
  return text ? { text, ...(path ? { to: path(id) } : {}) } : { text: `#${id}` };
}

/** The records an answer's row names, as the texts LogRefs holds. */
export function logRefs(t: TFunction, r: Pick<TActionLogRow, 'accountNames' | 'objectNames' | 'leadNames' | 'dealIds' | 'viewingDates' | 'userNames' | 'branchNames'>): LogRefs {
  return {
    accounts: r.accountNames,
    objects: r.objectNames,
    leads: r.leadNames,
    deals: r.dealIds && Object.fromEntries(r.dealIds.map((id) => [String(id), t('actionLog.ref.deal', { id })])),
    viewings: r.viewingDates && Object.fromEntries(Object.entries(r.viewingDates).map(([id, date]) => [id, `${t('actionLog.ref.viewing', { id })}${date ? ` · ${formatDateTime(date)}` : ''}`])),
    users: r.userNames,
    branches: r.branchNames,
  };
}
/** A change of a record number as its two records, old → new (none: "—"). */
function changeParts(kind: RefKind, from: unknown, to: unknown, refs: LogRefs): LogDataPart[] | undefined {
  if (!(from == null || isId(from)) || !(to == null || isId(to))) return undefined;
  const part = (v: number | null | undefined) => (v == null ? { text: '—' } : refPart(kind, v, refs));
  return [part(from), { ...part(to), sep: ' → ' }];
}

/** Where each logged entity's field labels are: the same texts its form uses. */
const FIELD_LABELS: Record<string, string> = {
  Account: 'accounts.ui.field',
  Client: 'accounts.ui.field',
  Owner: 'accounts.ui.field',
  Professional: 'accounts.ui.field',
  Source: 'accounts.ui.field',
  Object: 'fields.object',
  Lead: 'fields.lead',
  Deal: 'fields.deal',
  Reservation: 'fields.reservation',
  Transaction: 'fields.transaction',
  Activity: 'activities.field',
  Document: 'documents.ui',
  Viewing: 'viewings.ui',
  ObjectKey: 'objectkeys',
  Mandate: 'mandates.field',
  Invoice: 'invoices.field',
  InvoiceSettings: 'invoices.settings',
  Mailbox: 'mailbox.field',
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A local date-time as the server writes it (a moment with a zone is shown as stored). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
/** A moment with its zone (entries written before moments were logged as local text: "…T22:30:00.000Z"): on the agency's clock. */
const MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/;

/** A text the server kept in every language (a download's filter, as its file words it): read in the reader's. */
const isTexts = (v: unknown): v is Record<TCulture, string> =>
  !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === CULTURES.length && CULTURES.every((c) => typeof (v as Record<string, unknown>)[c] === 'string');

function valueText(t: TFunction, v: unknown): string {
  if (v == null || v === '') return '—';
  if (isTexts(v)) return v[currentCulture()];
  if (typeof v === 'boolean') return t(v ? 'common.yes' : 'common.no');
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return DATE.test(v) ? formatDate(v) : DATE_TIME.test(v) ? formatDateTime(v) : MOMENT.test(v) && !Number.isNaN(Date.parse(v)) ? formatDateTime(agencyDateTime(new Date(v))) : v;
  if (Array.isArray(v)) return v.every((x) => x == null || typeof x !== 'object') ? v.map((x) => valueText(t, x)).join(', ') : JSON.stringify(v);
  const o = v as Record<string, unknown>;
  // A change recorded as its old and new value.
  if (Object.keys(o).length === 2 && 'from' in o && 'to' in o) return `${valueText(t, o.from)} → ${valueText(t, o.to)}`;
  return JSON.stringify(v);
}

/** The amounts of the described records: shown as money (1 234,00 €), not as bare numbers. */
const MONEY = new Set([...DEAL_FIELDS, ...LEAD_FIELDS, ...RESERVATION_FIELDS, ...OBJECT_FIELDS].filter((d) => d.type === 'currency').map((d) => d.name));
/** A list's value by its text (the same texts its form shows), per logged entity. */
const LIST_TEXTS: Record<string, Record<string, string>> = {
  Deal: { dealType: 'deals.type', dealStage: 'deals.stage' },
  Lead: { stage: 'leads.stage', priority: 'leads.priority' },
  Reservation: { reservationStage: 'reservations.stage', sourceId: 'reservations.source' },
  Alert: { source: 'alerts.source' },
  // A person's gender (male, female) by name, whichever kind of account was changed.
  ...Object.fromEntries(['Account', 'Client', 'Owner', 'Professional', 'Source'].map((e) => [e, { gender: 'accounts.ui.gender' }])),
  Mandate: { kind: 'mandates.kind' },
  // An invoice's status, kind and payment method by name.
  Invoice: { status: 'invoices.status', kind: 'invoices.kind', paymentMethod: 'invoices.payment' },
  PortalChannel: { selection: 'portals.ui.selection', kind: 'portals.kind' },
  // The document sent for signature by its kind's name (a mandate, an offer agreement, a handover protocol).
  SignRequest: { source: 'doctemplates.file' },
  // A mailbox's password is logged only as set, never its value.
  Mailbox: { imapPassword: 'actionLog.data.secret', smtpPassword: 'actionLog.data.secret' },
  // A property's contact: its relation by name (Owner, Tenant…).
  Object: { relation: 'objects.relation' },
  // An income or expense: its kind, status and category by name.
  Transaction: { type: 'payments.type', status: 'payments.status', categoryId: 'payments.category' },
};
/** The record's own number and version: bookkeeping, not a change anyone made. */
const HIDDEN = new Set(['id', 'version']);

/**
 * The records a value names, as parts (refParts), else undefined: a record number under one of
 * REF_KEYS or an account's sourceId (or its change from → to), a lead's offered objects, a viewing's properties with their
 * results, a deal's parties.
 */
function refParts(t: TFunction, entity: string, key: string, v: unknown, refs: LogRefs): LogDataPart[] | undefined {
  const kind = refKind(entity, key);
  if (kind && isId(v)) return [refPart(kind, v, refs)];
  const o = v as Record<string, unknown> | null;
  if (kind && o && typeof o === 'object' && !Array.isArray(o) && Object.keys(o).length === 2 && 'from' in o && 'to' in o) return changeParts(kind, o.from, o.to, refs);
  const list = REF_LISTS[key];
  if (list && entity === 'Lead' && Array.isArray(v) && v.length && v.every(isId)) return v.map((id) => refPart(list, id, refs));
  // A viewing's properties: each by its number and title, the result and what the client said of it.
  if (entity === 'Viewing' && key === 'results' && Array.isArray(v) && v.length)
    return v.map((x) => {
      const r = (x ?? {}) as { objectId?: number; result?: number | null; comment?: string | null };
      const note = `${r.result != null ? `: ${t(`viewings.result.${r.result}`, { defaultValue: String(r.result) })}` : ''}${r.comment ? ` “${r.comment}”` : ''}`;
      return { ...(isId(r.objectId) ? refPart('objects', r.objectId, refs) : { text: `#${r.objectId}` }), ...(note ? { note } : {}) };
    });
  // A deal's parties: each by its role and the account's name (its number when the name is not known).
  if (entity === 'Deal' && key === 'accounts' && Array.isArray(v)) return dealParties(t, v, refs);
  return undefined;
}

function fieldValue(t: TFunction, entity: string, key: string, v: unknown, refs?: LogRefs): string {
  const parts = refParts(t, entity, key, v, refs);
  if (parts) return partsText(parts);
  // A change of a listed value (an invoice's status draft → sent): both by name.
  const o = v as Record<string, unknown> | null;
  if (LIST_TEXTS[entity]?.[key] && o && typeof o === 'object' && !Array.isArray(o) && Object.keys(o).length === 2 && 'from' in o && 'to' in o)
    return `${fieldValue(t, entity, key, o.from, refs)} → ${fieldValue(t, entity, key, o.to, refs)}`;
  // An invoice's amounts are kept in cents: shown as money.
  if (entity === 'Invoice' && /Cents$/.test(key) && typeof v === 'number') return formatMoney2(v / 100);
  // An invoice's customer by name and tax number, its lines by what each is for and its gross.
  if (entity === 'Invoice' && key === 'counterpart') return counterpartText(v);
  if (entity === 'Invoice' && key === 'lines' && Array.isArray(v)) return v.map((l) => invoiceLineText(l)).join('; ');
  // A document's language is stored as its code (el, en, ru): shown by its name.
  if (key === 'culture' && typeof v === 'string') return t(`accounts.ui.language.${v.slice(0, 2)}`, { defaultValue: v });
  // A language is stored as its code (el, en-UK, ru): shown by its name.
  if (key === 'language' && typeof v === 'string') return t(`accounts.ui.language.${v.slice(0, 2)}`, { defaultValue: v });
  const list = LIST_TEXTS[entity]?.[key];
  if (list && (typeof v === 'number' || typeof v === 'string') && v !== '') return t(`${list}.${v}`, { defaultValue: String(v) });
  if (MONEY.has(key) && (typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)))) return Number.isInteger(Number(v)) ? formatMoney(Number(v)) : formatMoney2(Number(v));
  // A sign-in's role or roles (admin, employee …) by their names, a change of them too.
  if (key === 'roles' || key === 'role') {
    const names = (x: unknown): string =>
      Array.isArray(x) ? x.map(names).join(', ') : typeof x === 'string' && x ? t(`accounts.role.${x}`, { defaultValue: x }) : valueText(t, x);
    if (v && typeof v === 'object' && !Array.isArray(v) && 'from' in v && 'to' in v) return `${names((v as { from: unknown }).from)} → ${names((v as { to: unknown }).to)}`;
    return names(v);
  }
  // A property's contacts removed: their relations by name.
  if (entity === 'Object' && key === 'relations' && Array.isArray(v)) return v.map((r) => t(`objects.relation.${r}`, { defaultValue: String(r) })).join(', ');
  return valueText(t, v);
}

/** An invoice's customer as logged ({ name, vatNumber, … }, or its change from → to): by name and tax number. */
function counterpartText(v: unknown): string {
  const one = (x: unknown) => {
    const c = (x ?? {}) as { name?: unknown; vatNumber?: unknown };
    return [c.name, c.vatNumber].filter((p) => typeof p === 'string' && p).join(' · ') || '—';
  };
  const o = (v ?? {}) as Record<string, unknown>;
  return 'from' in o && 'to' in o ? `${one(o.from)} → ${one(o.to)}` : one(v);
}

/** An invoice's line as logged ({ description, grossCents, … }): what it is for and its gross. */
function invoiceLineText(l: unknown): string {
  const x = (l ?? {}) as { description?: unknown; grossCents?: unknown };
  const gross = typeof x.grossCents === 'number' ? formatMoney2(x.grossCents / 100) : '';
  return [typeof x.description === 'string' ? x.description : '', gross].filter(Boolean).join(': ');
}

/** Parts as one text: "Seller Pavlidis Giorgos, Buyer #385", "#12 → Kleidas Kostas". */
const partsText = (parts: LogDataPart[]) => parts.map((p, i) => `${i > 0 ? (p.sep ?? ', ') : ''}${p.role ? `${p.role} ` : ''}${p.text}${p.note ?? ''}`).join('');

/** A deal's parties as logged ({ accountId, relation }): the role by name, the account by its name now and a link to it, else by its number. */
function dealParties(t: TFunction, v: unknown[], refs: LogRefs): LogDataPart[] {
  return v.map((x) => {
    const p = (x ?? {}) as { relation?: number; accountId?: number };
    const role = t(`deals.relation.${p.relation}`, { defaultValue: String(p.relation) });
    return { role, ...(isId(p.accountId) ? refPart('accounts', p.accountId, refs) : { text: `#${p.accountId}` }) };
  });
}

/** A row of a field: its label, its value as text, and the records it names as parts. */
function fieldRow(t: TFunction, entity: string, key: string, label: string, v: unknown, refs: LogRefs): LogDataRow {
  const parts = refParts(t, entity, key, v, refs);
  return parts ? { key, label, value: partsText(parts), parts } : { key, label, value: fieldValue(t, entity, key, v) };
}

/** A field's label as its form words it ("Sale price"), the log's own keys under actionLog.data.*, else the stored name. */
/** An invoice's amounts are logged in cents under their own names: labelled as the invoice screen labels them. */
const INVOICE_AMOUNTS: Record<string, string> = { netCents: 'net', vatCents: 'vatAmount', grossCents: 'gross', withheldCents: 'withheld' };

export function logFieldLabel(t: TFunction, entity: string, key: string): string {
  if (entity === 'Invoice' && INVOICE_AMOUNTS[key]) key = INVOICE_AMOUNTS[key];
  const prefix = FIELD_LABELS[entity];
  return t(prefix ? [`${prefix}.${key}`, `accounts.ui.kind.${key}`, `actionLog.data.${key}`] : [`actionLog.data.${key}`], { defaultValue: key });
}

export function logDataRows(t: TFunction, entity: string, data: unknown, refs?: LogRefs): LogDataRow[] {
  if (data == null || typeof data !== 'object' || Array.isArray(data)) return [];
  const d = data as Record<string, unknown>;
  // One field edited on its own (the single-field editor logs { field, from, to }): one row,
  // the field by its label, its old value → the new one.
  if (typeof d.field === 'string' && 'from' in d && 'to' in d && Object.keys(d).length === 3) {
    const kind = refKind(entity, d.field);
    const parts = kind ? changeParts(kind, d.from, d.to, refs) : undefined;
    if (parts) return [{ key: d.field, label: logFieldLabel(t, entity, d.field), value: partsText(parts), parts }];
    return [{ key: d.field, label: logFieldLabel(t, entity, d.field), value: `${fieldValue(t, entity, d.field, d.from)} → ${fieldValue(t, entity, d.field, d.to)}` }];
  }
  // A change of several values kept as { from: {…}, to: {…} } (a property's contact): a row for
  // each value that changed, old → new, beside the entry's other data.
  const isFields = (x: unknown): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x);
  if (isFields(d.from) && isFields(d.to)) {
    const before = d.from;
    const after = d.to;
    const { from: _from, to: _to, ...rest } = d;
    const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])]
      .filter((k) => JSON.stringify(before[k] ?? null) !== JSON.stringify(after[k] ?? null))
      .map((k) =>
        refKind(entity, k)
          ? fieldRow(t, entity, k, logFieldLabel(t, entity, k), { from: before[k] ?? null, to: after[k] ?? null }, refs)
          : { key: k, label: logFieldLabel(t, entity, k), value: `${fieldValue(t, entity, k, before[k])} → ${fieldValue(t, entity, k, after[k])}` },
      );
    return [...logDataRows(t, entity, rest, refs), ...changed];
  }
  return (
    Object.entries(d)
      // A deleted alert's text key and values are its message (logMessageText), not data.
      .filter(([key]) => !HIDDEN.has(key) && !(entity === 'Alert' && (key === 'messageKey' || key === 'params')))
      // A group of the record's fields kept together (a booking's client: last name, e-mail…): a row
      // for each one given, under its own label, not the group as raw JSON.
      .flatMap(([key, v]) =>
        FIELD_LABELS[entity] && isFields(v) && !('from' in v || 'to' in v) && !isTexts(v)
          ? Object.entries(v)
              .filter(([, x]) => x !== null && x !== undefined && x !== '')
              .map(([k, x]) => ({ key: `${key}.${k}`, label: logFieldLabel(t, entity, k), value: fieldValue(t, entity, k, x) }))
          : [fieldRow(t, entity, key, logFieldLabel(t, entity, key), v, refs)],
      )
  );
}

/** Data that is not an object of fields (a list, a number, a text) as one line. */
export const logDataText = (t: TFunction, data: unknown): string => (data == null ? '' : valueText(t, data));
