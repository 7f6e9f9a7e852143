import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { DEAL_RELATION, DEAL_TYPE_RENTAL, OWNER_RELATION, TENANT_RELATION, type TCulture, type TDeal, type TDocSource, type TDocTemplateKind } from '@crm/contract';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { agencyToday } from '../../lib/dates.ts';
import { getMandate } from '../mandates/mandates.service.ts';
import { getDeal } from '../deals/deals.service.ts';
import { objectSheet } from '../objects/object-sheet.ts';
import { agencyIdentity } from '../settings/site-settings.service.ts';
import { templateTexts } from './doc-texts.ts';
import type { T } from '../../lib/i18n.ts';


/** A blank to fill in by hand where the record holds no value, as printed forms leave one. */
export const BLANK = '……………………';

/** A document filled from its record: what the PDF draws, and the same as plain text. */
export type TFilledDoc = {
  kind: TDocTemplateKind;
  culture: TCulture;
  title: string;
  /** Paragraphs in order; a heading is drawn bold. */
  blocks: { heading: boolean; text: string }[];
  signatures: string[];
  /** The record the document is of, for its file name and where "save to files" puts it. */
  fileStem: string;
  agency: { name: string; lines: string[]; logo: (() => Promise<Buffer | undefined>) | null };
};

/** A date as the reader writes it: 27/11/2026 in Greek and English, 27.11.2026 in Russian. */
export const dateIn = (culture: TCulture, iso: string | null | undefined) => {
  if (!iso) return BLANK;
  const d = `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
  return culture === 'ru' ? d.replaceAll('/', '.') : d;
};

/** 1 234,50 € (space thousands, comma decimals, symbol after); whole euros without decimals. */
export const moneyIn = (n: number | null | undefined) => {
  if (n === null || n === undefined) return BLANK;
  const [int, frac] = n.toFixed(2).split('.');
  return `${int!.replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0')}${frac === '00' ? '' : `,${frac}`}\u00a0€`;
};

const percentIn = (n: number) => `${String(n).replace('.', ',')}%`;

type Person = { name: string; fatherName: string | null; idNumber: string | null; passportNumber: string | null; taxNumber: string | null; taxOffice: string | null; address: string | null };

/** One person's identity as a contract names its party: name, father's name, ID or passport, ΑΦΜ and ΔΟΥ, address. */
function personLine(p: Person, t: T): string {
  const part = (key: string, v: string | null) => `${t(`doctemplates.person.${key}`)} ${v ?? BLANK}`;
  const id = p.idNumber ? part('idNumber', p.idNumber) : p.passportNumber ? part('passportNumber', p.passportNumber) : part('idNumber', null);
  return [p.name, part('fatherName', p.fatherName), id, part('taxNumber', p.taxNumber), part('taxOffice', p.taxOffice), part('address', p.address)].join(', ');
}

const people = (list: Person[], t: T) => (list.length ? list.map((p, i) => `${list.length > 1 ? `${i + 1}. ` : ''}${personLine(p, t)}`).join('\n') : `${BLANK}, ${t('doctemplates.person.noneRecorded')}`);

/** The identity fields of accounts, as the mandate reads them (father's name is the middle name). */
async function identities(db: Db, ids: number[]): Promise<Map<number, Person>> {
  if (!ids.length) return new Map();
  const rows = await db.execute(sql`select a.id, coalesce(nullif(concat_ws(' ', nullif(btrim(a.first_name), ''), nullif(btrim(a.last_name), '')), ''), a.display_name) as name, nullif(btrim(a.middle_name), '') as "fatherName",
      nullif(btrim(a.internal_passport_number), '') as "idNumber", nullif(btrim(a.passport_number), '') as "passportNumber",
      coalesce(nullif(btrim(a.tax_number), ''), nullif(btrim(a.tax_number_of_other_country), '')) as "taxNumber",
      nullif(concat_ws(', ', nullif(btrim(a.address), ''), nullif(btrim(concat_ws(' ', nullif(btrim(a.postcode), ''), nullif(btrim(a.city), ''))), '')), '') as address
    from accounts a where a.id = any(${sql.param(ids)}::int[])`);
  return new Map((rows.rows as (Person & { id: number })[]).map((r) => [Number(r.id), { ...r, taxOffice: null }]));
}

/**
 * Where the property is, as a contract names it: the street and postcode, then the area and town
 * ("Βασιλίσσης Όλγας 112, 54643, Καλαμαριά, Θεσσαλονίκη"). With no street stored (a postcode alone),
 * the street is left as a blank to fill in by hand, as the document's other unknowns are
 * ("επί της ……………………, Σοχός, Λαγκαδάς, Θεσσαλονίκη, 57200"), never "επί της 57200".
 */
export function placeOf(sheet: { address: string | null; place: string | null }): string {
  const address = sheet.address?.trim() ?? '';
  const place = sheet.place?.trim() ?? '';
  if (!address) return place ? `${BLANK}, ${place}` : '';
  if (/^\d[\d\s]*$/.test(address)) return [BLANK, place, address].filter(Boolean).join(', ');
  return [address, place].filter(Boolean).join(', ');
}

/** The values every document has: the date, the agency, the property, the agent. */
async function commonValues(app: FastifyInstance, objectId: number | null, culture: TCulture, t: T, userId: number) {
  const site = await agencyIdentity(app);
  const values: Record<string, string> = {
    'document.date': dateIn(culture, agencyToday(app.config.timeZone)),
    'agency.name': site.nameIn(culture, BLANK),
    'agency.registry': site.licence ?? BLANK,
    'agency.taxNumber': site.taxNumber ?? BLANK,
    'agency.taxOffice': site.taxOffice ?? BLANK,
    'agency.address': site.address ?? BLANK,
    'agency.phone': site.phone ?? BLANK,
    'agency.email': site.email ?? BLANK,
  };
  let agent: string | null = null;
  if (objectId !== null) {
    const sheet = await objectSheet(app, objectId, culture, t, true, userId);
    const fact = (key: string) => sheet.facts.find((f) => f.key === key)?.value ?? BLANK;
    Object.assign(values, { 'property.ref': sheet.ref, 'property.address': placeOf(sheet) || BLANK, 'property.type': sheet.type || BLANK, 'property.area': fact('area'), 'property.floor': fact('floor') });
    agent = sheet.agent?.name ?? null;
  } else {
    Object.assign(values, { 'property.ref': BLANK, 'property.address': BLANK, 'property.type': BLANK, 'property.area': BLANK, 'property.floor': BLANK });
  }
  if (!agent) {
    const me = await app.db.execute(sql`select coalesce(a.display_name, u.username) as name from users u left join accounts a on a.id = u.account_id where u.id = ${userId}`);
    agent = ((me.rows[0] as { name: string } | undefined)?.name ?? null) || BLANK;
  }
  values['agent.name'] = agent;
  const lines = [
    [site.licence ? `${t('doctemplates.header.registry')} ${site.licence}` : null, site.taxNumber ? `${t('doctemplates.header.taxNumber')} ${site.taxNumber}${site.taxOffice ? `, ${t('doctemplates.header.taxOffice')} ${site.taxOffice}` : ''}` : null],
    [site.address, site.phone, site.email],
  ].map((l) => l.filter((v): v is string => !!v).join(' · ')).filter((l) => l !== '');
  return { values, agency: { name: values['agency.name']!, lines, logo: site.logo ? site.logo.read : null } };
}

/** Whole months between two days, as a contract says "8 months" (rounded to the nearest). */
const months = (from: string, to: string) => String(Math.max(1, Math.round((Date.parse(`${to}T00:00:00Z`) + 86400000 - Date.parse(`${from}T00:00:00Z`)) / (30.4375 * 86400000))));

/** The record's values for a document, its template and where it belongs. */
export async function recordValues(app: FastifyInstance, source: TDocSource, id: number, culture: TCulture, t: T, userId: number) {
  if (source === 'mandate') {
    const m = await getMandate(app, app.db, id);
    const common = await commonValues(app, m.objectId, culture, t, userId);
    // The owners named as a contract names them (first name, then surname), their identity as the mandate keeps it.
    const names = await identities(app.db, m.owners.map((o) => o.accountId));
    const commission = [m.commissionPercent !== null ? t('doctemplates.commission.percent', { percent: percentIn(m.commissionPercent) }) : null, m.commissionAmount !== null ? moneyIn(m.commissionAmount) : null]
      .filter((v): v is string => v !== null)
      .join(t('doctemplates.commission.or'));
    const exceptions = m.exceptions.length ? m.exceptions.map((e, i) => `${i + 1}. ${e.name}${e.note ? ` (${e.note})` : ''}`).join('\n') : t('doctemplates.exceptions.none');
    const values = {
      ...common.values,
      'mandate.owners': people(m.owners.map((o) => ({ ...o, name: names.get(o.accountId)?.name ?? o.name })), t),
      'mandate.start': dateIn(culture, m.startDate),
      'mandate.end': dateIn(culture, m.endDate),
      'mandate.months': months(m.startDate, m.endDate),
      'mandate.extendedUntil': m.extendedUntil ? dateIn(culture, m.extendedUntil) : t('doctemplates.notExtended'),
      'mandate.price': moneyIn(m.askingPrice),
      'mandate.commission': commission || BLANK,
      'mandate.exceptions': exceptions,
      'mandate.notes': m.notes ?? '',
    };
    const kind: TDocTemplateKind = m.kind === 'exclusive' ? 'mandateExclusive' : 'mandateSimple';
    return { kind, values, agency: common.agency, stem: `${t(`doctemplates.file.${kind}`)} ${common.values['property.ref']}`, objectId: m.objectId };
  }
  if (source === 'offer') {
    // The deal as its screen reads it (its described fields typed as the contract says).
    const d = (await getDeal(app, app.db, id, t, culture)) as unknown as TDeal | undefined;
    if (!d) throw notFound('deals.notFound');
    const common = await commonValues(app, d.objectId, culture, t, userId);
    const ids = d.accounts.map((a) => a.accountId);
    const who = await identities(app.db, ids);
    const of = (relation: number) => d.accounts.filter((a) => a.relation === relation).map((a) => who.get(a.accountId)).filter((p): p is Person => !!p);
    const rental = d.dealType === DEAL_TYPE_RENTAL;
    const values = {
      ...common.values,
      'deal.buyers': people(of(DEAL_RELATION.buyer), t),
      'deal.sellers': people(of(DEAL_RELATION.seller), t),
      'deal.purpose': t(`doctemplates.purpose.${rental ? 'rental' : 'sale'}`),
      'deal.price': d.price === null ? BLANK : rental ? t('doctemplates.perMonth', { amount: moneyIn(d.price) }) : moneyIn(d.price),
      'deal.askingPrice': moneyIn(d.askingPrice),
      'deal.deposit': moneyIn(d.deposit),
      'deal.depositDate': dateIn(culture, d.dateOfDeposit),
      'deal.commission': moneyIn(d.commission),
      'deal.signBy': dateIn(culture, d.endDate),
      'deal.rentStart': dateIn(culture, d.rentStart),
      'deal.months': d.contractDurationMonths === null ? BLANK : String(d.contractDurationMonths),
      'deal.notes': d.notes ?? '',
    };
    return { kind: 'offer' as const, values, agency: common.agency, stem: `${t('doctemplates.file.offer')} ${common.values['property.ref']}`, objectId: d.objectId };
  }
  const common = await commonValues(app, id, culture, t, userId);
  const links = await app.db.execute(sql`select account_id, relation, start_date::text as start, price::float8 as price from object_accounts
    where object_id = ${id} and relation in (${OWNER_RELATION}, ${TENANT_RELATION}) and (end_date is null or end_date >= ${agencyToday(app.config.timeZone)}::date)
    order by created_on, account_id`);
  const rows = links.rows as { account_id: number; relation: number; start: string | null; price: number | null }[];
  const who = await identities(app.db, rows.map((r) => Number(r.account_id)));
  const pick = (relation: number) => rows.filter((r) => Number(r.relation) === relation).map((r) => who.get(Number(r.account_id))).filter((p): p is Person => !!p);
  const lease = rows.find((r) => Number(r.relation) === TENANT_RELATION);
  const keys = await app.db.execute(sql`select coalesce(nullif(btrim(description), ''), ${t('doctemplates.keys.unnamed')}) as d from object_keys where object_id = ${id} order by id`);
  const keyList = (keys.rows as { d: string }[]).map((k, i) => `${i + 1}. ${k.d}`).join('\n');
  const values = {
    ...common.values,
    'handover.owners': people(pick(OWNER_RELATION), t),
    'handover.tenants': people(pick(TENANT_RELATION), t),
    'handover.keys': keyList || t('doctemplates.keys.none'),
    'handover.rent': lease?.price ? t('doctemplates.perMonth', { amount: moneyIn(lease.price) }) : BLANK,
    'handover.leaseStart': dateIn(culture, lease?.start ?? null),
  };
  return { kind: 'handover' as const, values, agency: common.agency, stem: `${t('doctemplates.file.handover')} ${common.values['property.ref']}`, objectId: id };
}

/** The values a mail text may name (the agency, the agent, the property when the mail is written from one); the greeting and the client are the caller's. */
export async function mailValues(app: FastifyInstance, objectId: number | null, culture: TCulture, t: T, userId: number): Promise<Record<string, string>> {
  return (await commonValues(app, objectId, culture, t, userId)).values;
}

/** Every `{name}` of a text replaced by its value (a name with no value stays as written). */
export const fillText = (text: string, values: Record<string, string>) => text.replace(/\{([^{}\s]{1,60})\}/g, (m, name: string) => values[name] ?? m);

/** A template's texts filled with values: the title, the blocks (a heading is drawn bold) and the signature lines. */
function layout(tpl: { title: string; body: string; signatures: string }, values: Record<string, string>) {
  const blocks = tpl.body
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => (p.startsWith('## ') ? { heading: true, text: fillText(p.slice(3).trim(), values) } : { heading: false, text: fillText(p, values) }))
    .filter((b) => b.text.trim() !== '');
  const signatures = tpl.signatures
    .split(/\r?\n/)
    .map((s) => fillText(s.trim(), values))
    .filter((s) => s !== '');
  return { title: fillText(tpl.title.trim(), values), blocks, signatures };
}

/**
 * The document of a record in a language: its template's texts (the agency's own, else the
 * default) filled with the record's values, split into blocks and signature lines. With it its
 * fingerprint (decision 086): the SHA-256 of everything it prints (the filled texts, the file name,
 * the agency's header) save the day it is made and the logo, so a change of any record it prints
 * (an owner's tax number, the property's address, the agency's details, the template) changes it.
 */
export async function fillDocument(app: FastifyInstance, source: TDocSource, id: number, culture: TCulture, userId: number): Promise<TFilledDoc & { fingerprint: string }> {
  const t: T = (key, params) => app.translator.t(culture, key, params);
  const r = await recordValues(app, source, id, culture, t, userId);
  const tpl = await templateTexts(app, r.kind, culture);
  const stable = layout(tpl, { ...r.values, 'document.date': '{document.date}' });
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([r.kind, culture, r.stem, r.agency.name, r.agency.lines, stable.title, stable.blocks, stable.signatures]))
    .digest('hex');
  return { kind: r.kind, culture, ...layout(tpl, r.values), fileStem: r.stem, agency: r.agency, fingerprint };
}

/** The document as plain text: what the PDF draws, in the same order (title, blocks, signature lines). */
export const plainText = (d: TFilledDoc) => [d.title, ...d.blocks.map((b) => b.text), ...d.signatures].join('\n\n');
