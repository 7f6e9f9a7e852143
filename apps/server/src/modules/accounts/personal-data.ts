import type { FastifyInstance } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import type ExcelJS from 'exceljs';
import { ACCOUNT_FIELD_DESCRIPTIONS, LinkKind, type TCulture } from '@crm/contract';
import type { Tx } from '../../db/client.ts';
import { accounts } from '../../db/schema/index.ts';
import { logAction } from '../../lib/audit.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { cellDate, cellMoney, DATE_FORMAT, DATE_TIME_FORMAT, EURO_FORMAT, sheetName, streamedWorkbook, textCell } from '../../lib/excel.ts';
import type { Download } from '../../lib/downloads.ts';
import { noteFilesToRemove, removeNotedFiles } from '../../storage/pending-files.ts';
import { storedNames } from '../files/files.service.ts';
import { accountMailList, eraseAccountMail } from '../mail/mail-accounts.ts';
import { eraseSignRequests, personalSignRequests } from '../signing/sign-people.ts';
import { accountForCaller, ASSIGNMENT_PARENT_ACCOUNT, requireAccountDto } from './accounts.service.ts';
import { OWNED_RELATIONS } from './accounts.sql.ts';
import type { Caller } from '../../plugins/auth.ts';
import type { T } from '../../lib/i18n.ts';

type Row = Record<string, unknown>;

/** Assignment parents as the assignments table keeps them. */
const ASSIGNMENT_PARENTS: Record<number, string> = { 0: 'Object', 1: 'Account', 2: 'Lead', 3: 'Viewing' };

/** What an erased person's names become: a number, the same in every language (the screens say "Erased person" beside it). */
export const erasedName = (id: number) => `#${id}`;

const rowsOf = async (tx: Pick<Tx, 'execute'>, q: ReturnType<typeof sql>) => (await tx.execute(q)).rows as Row[];

/** A sheet: bold heads, then the rows; widths by the heads. */
function addSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, title: string, heads: string[], rows: ExcelJS.CellValue[][], formats: Record<number, string> = {}) {
  const ws = wb.addWorksheet(sheetName(title));
  ws.columns = heads.map((h, i) => ({ width: Math.min(60, Math.max(14, h.length + 4)), style: formats[i] ? { numFmt: formats[i] } : {} }));
  const head = ws.addRow(heads);
  head.font = { bold: true };
  head.commit();
  for (const r of rows) ws.addRow(r).commit();
  ws.commit();
  return rows.length;
}

const dateTime = (d: unknown, tz: string) => (d instanceof Date ? cellDate(toLocalDateTime(d, tz)) : typeof d === 'string' ? cellDate(d) : null);
const money = (v: unknown) => (v === null || v === undefined ? null : cellMoney(v as string | number));
const str = (v: unknown) => (v === null || v === undefined ? null : textCell(String(v)));

/**
 * GET /api/account/personal-data/{id}: everything the CRM holds about the person (GDPR Art. 15/20),
 * one workbook with a sheet per kind of record, in the reader's language. Other people appear by
 * their role only (a deal's other parties, a property's other owners are left out).
 */
export async function personalDataWorkbook(app: FastifyInstance, id: number, t: T, culture: TCulture): Promise<Download> {
  const db = app.db;
  const tz = app.config.timeZone;
  const [a] = await db.select().from(accounts).where(eq(accounts.id, id));
  if (!a) throw notFound();
  const yesNo = (v: unknown) => (v === true ? t('common.yes') : v === false ? t('common.no') : null);

  // The account's fields, every one the description lists, by their labels.
  const source = a.sourceId
    ? ((await rowsOf(db, sql`select display_name, is_company from accounts where id = ${a.sourceId}`))[0] as { display_name: string; is_company: boolean | null } | undefined)
    : undefined;
  const branch = a.branchId !== null ? ((await rowsOf(db, sql`select name_key from branches where id = ${a.branchId}`))[0] as { name_key: string } | undefined) : undefined;
  const valueOf = (name: string): ExcelJS.CellValue => {
    const v = (a as Row)[name];
    switch (name) {
      case 'email':
        return str(a.emails.join('; ') || null);
      case 'phone':
        return str(a.phones.join('; ') || null);
      // A source that is a person is somebody else: named only when it is a company.
      case 'sourceId':
        return source ? (source.is_company ? str(source.display_name) : `#${a.sourceId}`) : null;
      case 'service':
        return a.service ? t(`accounts.service.${a.service}`) : null;
      case 'role':
        return a.role ? t(`accounts.role.${a.role}`) : null;
      case 'gender':
        return a.gender ? t(`accounts.ui.gender.${a.gender}`) : null;
      case 'branchId':
        return branch ? t(branch.name_key) : null;
    }
    if (typeof v === 'boolean' || v === null) return yesNo(v);
    if (typeof v === 'number') return v;
    return str(v);
  };
  const accountRows: ExcelJS.CellValue[][] = [
    [t('accounts.personalData.col.number'), a.id],
    ...ACCOUNT_FIELD_DESCRIPTIONS.map((d) => [t(`accounts.ui.field.${d.name}`), valueOf(d.name)]),
    [t('accounts.personalData.col.clientSince'), dateTime(a.isClientDate, tz)],
    [t('accounts.personalData.col.ownerSince'), dateTime(a.isOwnerDate, tz)],
    [t('accounts.personalData.col.createdOn'), dateTime(a.createdOn, tz)],
    [t('accounts.personalData.col.modifiedOn'), dateTime(a.modifiedOn, tz)],
    [t('accounts.personalData.col.erasedOn'), dateTime(a.erasedOn, tz)],
  ];
  const signIns = await rowsOf(db, sql`select email, roles, disabled, created_on from users where account_id = ${id} order by id`);

  const leads = await rowsOf(db, sql`select id, created_on, stage, purchase_budget_range_min, purchase_budget_range_max, rent_budget_range_min, rent_budget_range_max,
      short_rent_budget_range_min, short_rent_budget_range_max, description from leads where account_id = ${id} order by id`);
  const offered = await rowsOf(db, sql`select lo.lead_id, o.reference_number, o.title from lead_objects lo join leads l on l.id = lo.lead_id join objects o on o.id = lo.object_id
      where l.account_id = ${id} order by lo.lead_id, lo.position`);
  const viewings = await rowsOf(db, sql`select v.id, v.date_of_viewing, v.demand_id, o.reference_number, o.title, vo.result, vo.comment
      from viewings v join leads l on l.id = v.demand_id left join viewing_objects vo on vo.viewing_id = v.id left join objects o on o.id = vo.object_id
      where l.account_id = ${id} order by v.date_of_viewing nulls last, v.id, vo.position`);
  const deals = await rowsOf(db, sql`select d.id, d.deal_type, d.deal_stage, d.price, d.commission, d.start_date, d.end_date, d.created_on, o.reference_number, o.title,
      (select array_agg(distinct p.relation order by p.relation) from deal_parties p where p.deal_id = d.id and p.account_id = ${id}) as own,
      (select array_agg(distinct p.relation order by p.relation) from deal_parties p where p.deal_id = d.id and p.account_id <> ${id}) as others
      from deals d left join objects o on o.id = d.object_id
      where exists (select 1 from deal_parties p where p.deal_id = d.id and p.account_id = ${id}) order by d.id`);
  const reservations = await rowsOf(db, sql`select r.id, r.reservation_stage, r.booking_date, r.check_in, r.duration, r.adults, r.children, o.reference_number,
      r.client_last_name, r.client_first_name, r.client_tax_number, r.client_internal_passport_number, r.client_email, r.client_phone, r.total
      from reservations r join objects o on o.id = r.object_id where r.client_account_id = ${id} order by r.check_in, r.id`);
  const payments = await rowsOf(db, sql`select reference_number, type, transaction_date, amount, payment_date, internal_notes from transactions where account_id = ${id}
      order by transaction_date, id`);
  const properties = await rowsOf(db, sql`select o.reference_number, o.title, oa.relation from object_accounts oa join objects o on o.id = oa.object_id
      where oa.account_id = ${id} order by o.reference_number, oa.relation`);
  const activities = await rowsOf(db, sql`select a.id, a.created_on, a.date, a.category, a.done, a.description from activities a
      join activity_links l on l.activity_id = a.id where l.entity = ${LinkKind.Account} and l.entity_id = ${id} order by a.created_on, a.id`);
  // The staff assigned to the person, and the records the person is assigned to (a specialist's).
  const assignments = await rowsOf(db, sql`select s.created_on, s.parent, s.parent_id, s.account_id, p.display_name as staff from assignments s join accounts p on p.id = s.account_id
      where (s.parent = ${ASSIGNMENT_PARENT_ACCOUNT} and s.parent_id = ${id}) or s.account_id = ${id} order by s.created_on, s.id`);
  const files = await rowsOf(db, sql`select user_name, size, created_on from files where parent_type = ${LinkKind.Account} and parent_id = ${id} order by sort_order, id`);
  const shortlists = await rowsOf(db, sql`select s.sent_on, s.channel, s.email, s.expires_on, s.opened_on, s.withdrawn_on,
      (select string_agg(o.reference_number::text, ' ' order by so.position) from shortlist_objects so join objects o on o.id = so.object_id where so.shortlist_id = s.id) as refs
      from shortlists s join leads l on l.id = s.lead_id where l.account_id = ${id} order by s.sent_on`);
  const log = await rowsOf(db, sql`select date, action, action_by_name, message, data from action_log where entity = 'Account' and entity_id = ${id} order by date, id`);
  // The mandates the person gave (decision 079): the other owners and the exceptions are other people, left out.
  const mandates = await rowsOf(db, sql`select o.reference_number, o.title, m.kind, m.start_date, m.end_date, m.extended_until, m.asking_price, m.commission_percent, m.commission_amount, mo.tax_office
      from object_mandate_owners mo join object_mandates m on m.id = mo.mandate_id join objects o on o.id = m.object_id where mo.account_id = ${id} order by m.start_date, m.id`);

  // The documents sent to the person for signature (decision 086): what they typed, when, from which address and device, the hashes.
  const signatures = await personalSignRequests(db, id, [...a.emails, ...signIns.map((u) => String(u.email ?? ''))]);

  // The mail linked to the person (decision 078): when, what about, between whom; not its text.
  const mail = await accountMailList(db, id);

  const c = (key: string) => t(`accounts.personalData.col.${key}`);
  const relations = (list: unknown, prefix: string) => (Array.isArray(list) && list.length ? list.map((r) => t(`${prefix}.${r}`)).join(', ') : null);
  let rows = 0;
  const file = await streamedWorkbook(async (wb) => {
    rows += addSheet(wb, t('accounts.personalData.sheet.account'), [c('field'), c('value')], accountRows);
    rows += addSheet(wb, t('accounts.personalData.sheet.contacts'), [c('kind'), c('value')], [
      ...a.phones.map((p) => [t('accounts.ui.field.phone'), str(p)]),
      ...a.emails.map((e) => [t('accounts.ui.field.email'), str(e)]),
      ...signIns.map((u) => [t('accounts.ui.field.signIn'), str(u.email)]),
    ]);
    rows += addSheet(
      wb,
      t('accounts.personalData.sheet.leads'),
      [c('number'), c('createdOn'), c('stage'), c('purchaseBudget'), c('rentBudget'), c('shortRentBudget'), c('description')],
      leads.map((l) => [
        l.id as number,
        dateTime(l.created_on, tz),
        l.stage ? t(`leads.stage.${l.stage}`) : null,
        str([l.purchase_budget_range_min, l.purchase_budget_range_max].filter((v) => v != null).join(' – ') || null),
        str([l.rent_budget_range_min, l.rent_budget_range_max].filter((v) => v != null).join(' – ') || null),
        str([l.short_rent_budget_range_min, l.short_rent_budget_range_max].filter((v) => v != null).join(' – ') || null),
        str(l.description),
      ]),
      { 1: DATE_TIME_FORMAT },
    );
    rows += addSheet(wb, t('accounts.personalData.sheet.offered'), [c('lead'), c('reference'), c('title')], offered.map((o) => [o.lead_id as number, o.reference_number as number, str(o.title)]));
    rows += addSheet(
      wb,
      t('accounts.personalData.sheet.viewings'),
      [c('number'), c('date'), c('lead'), c('reference'), c('title'), c('result'), c('comment')],
      viewings.map((v) => [v.id as number, dateTime(v.date_of_viewing, tz), v.demand_id as number, (v.reference_number as number) ?? null, str(v.title), v.result ? t(`viewings.result.${v.result}`) : null, str(v.comment)]),
      { 1: DATE_TIME_FORMAT },
    );
    rows += addSheet(
      wb,
      t('accounts.personalData.sheet.deals'),
      [c('number'), c('type'), c('stage'), c('reference'), c('title'), c('ownRole'), c('otherRoles'), c('price'), c('commission'), c('start'), c('end'), c('createdOn')],
      deals.map((d) => [
        d.id as number,
        d.deal_type ? t(`deals.type.${d.deal_type}`) : null,
        d.deal_stage ? t(`deals.stage.${d.deal_stage}`) : null,
        (d.reference_number as number) ?? null,
        str(d.title),
        relations(d.own, 'deals.relation'),
        relations(d.others, 'deals.relation'),
        money(d.price),
        money(d.commission),
        cellDate(d.start_date as string | null),
        cellDate(d.end_date as string | null),
        dateTime(d.created_on, tz),
      ]),
      { 7: EURO_FORMAT, 8: EURO_FORMAT, 9: DATE_FORMAT, 10: DATE_FORMAT, 11: DATE_TIME_FORMAT },
    );
    rows += addSheet(
      wb,
      t('accounts.personalData.sheet.reservations'),
      [c('number'), c('stage'), c('reference'), c('checkIn'), c('nights'), c('adults'), c('children'), t('accounts.ui.field.lastName'), t('accounts.ui.field.firstName'), t('accounts.ui.field.taxNumber'), t('accounts.ui.field.internalPassportNumber'), t('accounts.ui.field.email'), t('accounts.ui.field.phone'), c('total')],
      reservations.map((r) => [
        r.id as number,
        t(`reservations.stage.${r.reservation_stage}`),
        r.reference_number as number,
        cellDate(r.check_in as string),
        r.duration as number,
        (r.adults as number) ?? null,
        (r.children as number) ?? null,
        str(r.client_last_name),
        str(r.client_first_name),
        str(r.client_tax_number),
        str(r.client_internal_passport_number),
        str(r.client_email),
        str(r.client_phone),
        money(r.total),
      ]),
      { 3: DATE_FORMAT, 13: EURO_FORMAT },
    );
    rows += addSheet(
      wb,
      t('accounts.personalData.sheet.payments'),
      [c('number'), c('type'), c('date'), c('amount'), c('paidOn'), c('notes')],
      payments.map((p) => [p.reference_number as number, t(`payments.type.${p.type}`), dateTime(p.transaction_date, tz), money(p.amount), cellDate(p.payment_date as string | null), str(p.internal_notes)]),
      { 2: DATE_TIME_FORMAT, 3: EURO_FORMAT, 4: DATE_FORMAT },
    );
    rows += addSheet(wb, t('accounts.personalData.sheet.properties'), [c('reference'), c('title'), c('ownRole')], properties.map((p) => [p.reference_number as number, str(p.title), t(`objects.relation.${p.relation}`)]));
    rows += addSheet(
      wb,
      t('accounts.personalData.sheet.mandates'),
      [c('reference'), c('title'), c('kind'), c('start'), c('end'), t('mandates.field.extendedUntil'), c('price'), t('mandates.field.commissionPercent'), c('commission'), t('mandates.owner.taxOffice')],
      mandates.map((m) => [
        m.reference_number as number,
        str(m.title),
        t(`mandates.kind.${String(m.kind)}`),
        cellDate(m.start_date as string | null),
        cellDate(m.end_date as string | null),
        cellDate(m.extended_until as string | null),
        money(m.asking_price),
        m.commission_percent == null ? null : Number(m.commission_percent),
        money(m.commission_amount),
        str(m.tax_office),
      ]),
      { 3: DATE_FORMAT, 4: DATE_FORMAT, 5: DATE_FORMAT, 6: EURO_FORMAT, 8: EURO_FORMAT },
    );
    rows += addSheet(
      wb,
      t('accounts.personalData.sheet.signatures'),
      [c('document'), c('sentOn'), c('by'), c('signerName'), t('accounts.ui.field.email'), c('expiresOn'), c('status'), c('signedOn'), c('signedName'), c('ip'), c('device'), c('documentHash'), c('signedHash')],
      signatures.map((s) => [
        str(s.document_name),
        dateTime(s.sent_on, tz),
        str(s.sent_by_name),
        str(s.signer_name),
        str(s.signer_email),
        dateTime(s.expires_on, tz),
        t(`signing.status.${String(s.status)}`),
        dateTime(s.signed_on, tz),
        str(s.signed_name),
        str(s.signed_ip),
        str(s.signed_user_agent),
        str(s.pdf_sha256),
        str(s.signed_sha256),
      ]),
      { 1: DATE_TIME_FORMAT, 5: DATE_TIME_FORMAT, 7: DATE_TIME_FORMAT },
    );
    rows += addSheet(
      wb,
      t('accounts.personalData.sheet.activities'),
      [c('number'), c('createdOn'), c('date'), c('category'), c('done'), c('description')],
      activities.map((x) => [x.id as number, dateTime(x.created_on, tz), dateTime(x.date, tz), t(`activities.category.${x.category}`), yesNo(x.done), str(x.description)]),
      { 1: DATE_TIME_FORMAT, 2: DATE_TIME_FORMAT },
    );
    rows += addSheet(
      wb,
      t('accounts.personalData.sheet.assignments'),
      [c('createdOn'), c('record'), c('staff')],
      assignments.map((s) =>
        Number(s.account_id) === id
          ? [dateTime(s.created_on, tz), `${ASSIGNMENT_PARENTS[s.parent as number] ?? s.parent} #${s.parent_id}`, null]
          : [dateTime(s.created_on, tz), null, str(s.staff)],
      ),
      { 0: DATE_TIME_FORMAT },
    );
    rows += addSheet(wb, t('accounts.personalData.sheet.files'), [c('fileName'), c('size'), c('createdOn')], files.map((f) => [str(f.user_name), f.size as number, dateTime(f.created_on, tz)]), { 2: DATE_TIME_FORMAT });
    rows += addSheet(
      wb,
      t('accounts.personalData.sheet.shortlists'),
      [c('sentOn'), c('channel'), t('accounts.ui.field.email'), c('expiresOn'), c('openedOn'), c('withdrawnOn'), c('reference')],
      shortlists.map((s) => [dateTime(s.sent_on, tz), str(s.channel), str(s.email), dateTime(s.expires_on, tz), dateTime(s.opened_on, tz), dateTime(s.withdrawn_on, tz), str(s.refs)]),
      { 0: DATE_TIME_FORMAT, 3: DATE_TIME_FORMAT, 4: DATE_TIME_FORMAT, 5: DATE_TIME_FORMAT },
    );
    rows += addSheet(
      wb,
      t('accounts.personalData.sheet.mail'),
      [c('sentOn'), c('subject'), c('from'), c('to')],
      mail.map((m) => [dateTime(m.sent_on, tz), str(m.subject), str(m.from), str(m.to)]),
      { 0: DATE_TIME_FORMAT },
    );
    rows += addSheet(
      wb,
      t('accounts.personalData.sheet.log'),
      [c('date'), c('action'), c('by'), c('message'), c('details')],
      log.map((l) => [
        dateTime(l.date, tz),
        t(`actionLog.action.${String(l.action)}`),
        str(l.action_by_name),
        str(l.message),
        str(l.data == null ? null : JSON.stringify(l.data)),
      ]),
      { 0: DATE_TIME_FORMAT },
    );
  });
  void culture;
  return { file, rows };
}

/** A regular expression (PostgreSQL's) that finds any of the texts, as typed. */
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * POST /api/account/erase/{id}: the person's data erased on request (GDPR Art. 17), in one
 * transaction. The account stays, anonymised, with what the law makes the agency keep (deals,
 * payments, reservations' amounts); see docs/decisions/051-a-persons-data.md for what goes where.
 */
export async function erasePersonalData(app: FastifyInstance, caller: Caller, id: number, version: number) {
  const filesGone: { systemName: string; thumbName: string | null; webName: string | null }[] = [];
  const mailFilesGone: string[] = [];
  const sentPdfsGone: string[] = [];
  const marker = erasedName(id);
  await app.db.transaction(async (tx) => {
    const [a] = await tx.select().from(accounts).where(eq(accounts.id, id)).for('update');
    if (!a) throw notFound();
    if (a.erasedOn) throw badRequest('accounts.erase.already');
    if (version !== a.version) throw conflict(accountForCaller(caller.user, await requireAccountDto(app, tx, id)));
    if (a.isEmploye) throw badRequest('accounts.erase.employee');
    const admin = await rowsOf(tx, sql`select 1 from users where account_id = ${id} and not disabled and 'admin' = any(roles) limit 1`);
    if (admin.length) throw badRequest('accounts.erase.adminSignIn');
    const listed = await rowsOf(tx, sql`select distinct o.reference_number from object_accounts oa join objects o on o.id = oa.object_id
      where oa.account_id = ${id} and oa.relation = any(${sql.param([...OWNED_RELATIONS])}::int[]) and o.active order by 1`);
    if (listed.length) throw badRequest('accounts.erase.listingOwner', { refs: listed.map((r) => String(r.reference_number)).join(', ') });

    // The values that name or reach the person, as stored anywhere: found and replaced below.
    const signIns = await rowsOf(tx, sql`select id, email from users where account_id = ${id}`);
    const booked = await rowsOf(tx, sql`select client_last_name, client_first_name, client_email, client_phone, client_tax_number, client_internal_passport_number
      from reservations where client_account_id = ${id}`);
    const names = [a.firstName, a.lastName, a.middleName, a.firstNameEng, a.lastNameEng, a.middleNameEng, a.firstNameLocal, a.lastNameLocal, a.middleNameLocal, a.name, a.nameEng, a.nameLocal];
    const clean = (list: (string | null | undefined)[]) =>
      list
        .map((v) => (v ?? '').trim())
        // Short pieces (an initial, "Jr") would hit other people's words.
        .filter((v) => v.length >= 3 && v !== marker);
    // What names the person alone, wherever it is: the whole name, contacts, document numbers.
    const strong = clean([
      a.displayName,
      [a.lastName, a.firstName].filter(Boolean).join(' '),
      [a.firstName, a.lastName].filter(Boolean).join(' '),
      a.name,
      a.nameEng,
      a.nameLocal,
      ...a.emails,
      ...a.phones,
      a.taxNumber,
      a.taxNumberOfOtherCountry,
      a.passportNumber,
      a.internalPassportNumber,
      a.address,
      ...signIns.map((u) => u.email as string),
      ...booked.flatMap((r) => [r.client_email, r.client_phone, r.client_tax_number, r.client_internal_passport_number, [r.client_last_name, r.client_first_name].filter(Boolean).join(' ')] as (string | null)[]),
    ]);
    // Also each name alone ("Maria"): only in the person's own records, where it can mean no one else.
    const all = [...strong, ...clean([...names, ...booked.flatMap((r) => [r.client_last_name, r.client_first_name] as (string | null)[])])];
    // Longest first: "Maria Papadopoulou" before "Maria".
    const patternOf = (list: string[]) => (list.length ? [...new Set(list)].sort((x, y) => y.length - x.length).map(escapeRegex).join('|') : null);
    const strongPattern = patternOf(strong);
    const allPattern = patternOf(all);
    type Col = ReturnType<typeof sql.raw> | ReturnType<typeof sql.identifier>;
    const scrub = (column: Col, pattern = allPattern) => (pattern ? sql`regexp_replace(${column}, ${pattern}, ${marker}, 'gi')` : sql`${column}`);
    const hits = (column: Col, pattern = allPattern) => (pattern ? sql`${column} ~* ${pattern}` : sql`false`);
    /** The person's names and contacts replaced by its number in every text of the records `ids` of `table`. */
    const scrubRecords = async (table: string, ids: number[]) => {
      if (!allPattern || !ids.length) return;
      const cols = (
        await rowsOf(tx, sql`select column_name from information_schema.columns
          where table_schema = 'public' and table_name = ${table} and data_type = 'text' and is_generated = 'NEVER' order by ordinal_position`)
      ).map((r) => sql.identifier(String(r.column_name)));
      if (!cols.length) return;
      await tx.execute(sql`update ${sql.identifier(table)} set ${sql.join(
        cols.map((c) => sql`${c} = case when ${hits(c)} then ${scrub(c)} else ${c} end`),
        sql`, `,
      )} where id = any(${sql.param(ids)}::int[]) and (${sql.join(cols.map((c) => hits(c)), sql` or `)})`);
    };
    // The person's records: what the log says of them may name the person in any of these words.
    const idsOf = async (q: ReturnType<typeof sql>) => (await rowsOf(tx, q)).map((r) => Number(r.id));
    const own = {
      Lead: await idsOf(sql`select id from leads where account_id = ${id}`),
      Deal: await idsOf(sql`select distinct deal_id as id from deal_parties where account_id = ${id}`),
      Transaction: await idsOf(sql`select id from transactions where account_id = ${id}`),
      Reservation: await idsOf(sql`select id from reservations where client_account_id = ${id}`),
      Object: await idsOf(sql`select distinct object_id as id from object_accounts where account_id = ${id}`),
      Viewing: await idsOf(sql`select v.id from viewings v join leads l on l.id = v.demand_id where l.account_id = ${id}`),
      Activity: await idsOf(sql`select activity_id as id from activity_links where entity = ${LinkKind.Account} and entity_id = ${id}`),
      File: await idsOf(sql`select id from files where parent_type = ${LinkKind.Account} and parent_id = ${id}`),
      User: signIns.map((u) => Number(u.id)),
      SignRequest: [] as number[],
    };

    // The account: every personal field emptied, the names a number.
    await tx
      .update(accounts)
      .set({
        lastName: marker,
        firstName: null,
        middleName: null,
        gender: null,
        name: null,
        nameEng: null,
        nameLocal: null,
        firstNameEng: null,
        lastNameEng: null,
        middleNameEng: null,
        firstNameLocal: null,
        lastNameLocal: null,
        middleNameLocal: null,
        purchaseBudgetRangeMin: null,
        purchaseBudgetRangeMax: null,
        language: null,
        country: null,
        nationality: null,
        companyType: null,
        emails: [],
        phones: [],
        internalPassportNumber: null,
        passportNumber: null,
        taxNumber: null,
        taxNumberOfOtherCountry: null,
        city: null,
        postcode: null,
        address: null,
        notes: null,
        erasedOn: new Date(),
        version: a.version + 1,
        modifiedOn: new Date(),
        modifiedBy: caller.user.id,
      })
      .where(eq(accounts.id, id));
    // The mandates the person gave stay (the agency's record of its work), without the person's tax office.
    await tx.execute(sql`update object_mandate_owners set tax_office = null where account_id = ${id}`);
    // Words of the old names that no account has any more leave the search's word list now.
    await tx.execute(sql`delete from search_words w where w.word = any(public.crm_search_text_words(${a.searchText}))
      and not exists (select 1 from account_words x where x.word = w.word)`);

    // Its sign-ins end, with their sessions, devices and reset codes; the address they carried goes.
    if (signIns.length) {
      const ids = signIns.map((u) => Number(u.id));
      const idList = sql.param(ids);
      await tx.execute(sql`delete from sessions where user_id = any(${idList}::int[])`);
      await tx.execute(sql`delete from password_resets where user_id = any(${idList}::int[])`);
      await tx.execute(sql`delete from login_devices where user_id = any(${idList}::int[])`);
      await tx.execute(sql`delete from login_failures where key = any(${sql.param(signIns.map((u) => `a:${String(u.email).toLowerCase()}`))}::text[])`);
      await tx.execute(sql`update users set email = 'erased-' || id || '@invalid', username = ${marker}, password_hash = null, disabled = true, modified_on = now()
        where id = any(${idList}::int[])`);
    }

    // Its files: the records go now, the stored files once this has committed.
    const gone = await rowsOf(tx, sql`delete from files where parent_type = ${LinkKind.Account} and parent_id = ${id} returning id, system_name, thumb_name, web_name`);
    for (const f of gone) filesGone.push({ systemName: f.system_name as string, thumbName: (f.thumb_name as string) ?? null, webName: (f.web_name as string) ?? null });

    // Its documents sent for signature: unsigned ones go with their PDF; signed ones keep the proof, not the person (decision 086).
    const signing = await eraseSignRequests(tx, id, [...a.emails, ...signIns.map((u) => String(u.email ?? ''))], marker);
    own.SignRequest = signing.ids;
    sentPdfsGone.push(...signing.files);

    // Its mail: the messages linked to it and their attachments; the stored files once this has committed.
    const mailGone = await eraseAccountMail(tx, id);
    mailFilesGone.push(...mailGone.files);

    // Its shortlists: withdrawn, the address they went to emptied.
    const withdrawn = await rowsOf(tx, sql`update shortlists s set withdrawn_on = coalesce(s.withdrawn_on, now()),
        withdrawn_by = case when s.withdrawn_on is null then ${caller.user.id}::int else s.withdrawn_by end,
        withdrawn_by_name = case when s.withdrawn_on is null then ${caller.actor.name} else s.withdrawn_by_name end, email = null
      from leads l where l.id = s.lead_id and l.account_id = ${id} returning s.id`);

    // Free texts about the person: its leads' descriptions and its viewings' comments emptied;
    // activities on it alone deleted, those shared with other records keep their text less its names.
    await tx.execute(sql`update leads set description = null where account_id = ${id} and description is not null`);
    await tx.execute(sql`update viewing_objects vo set comment = null from viewings v join leads l on l.id = v.demand_id
      where vo.viewing_id = v.id and l.account_id = ${id} and vo.comment is not null`);
    const links = await rowsOf(tx, sql`delete from activity_links where entity = ${LinkKind.Account} and entity_id = ${id} returning activity_id`);
    const activityIds = [...new Set(links.map((l) => Number(l.activity_id)))];
    if (activityIds.length) {
      await tx.execute(sql`delete from activities a where a.id = any(${sql.param(activityIds)}::int[]) and not exists (select 1 from activity_links l where l.activity_id = a.id)`);
      await scrubRecords('activities', activityIds);
    }

    // What the law keeps: the reservations (their guest anonymised), deals and payments; their free
    // texts, and those of the properties the person owned or rented, less the person's names.
    await tx.execute(sql`update reservations set client_last_name = ${marker}, client_first_name = null, client_tax_number = null,
        client_internal_passport_number = null, client_email = null, client_phone = null
      where client_account_id = ${id}`);
    await scrubRecords('reservations', own.Reservation);
    await scrubRecords('leads', own.Lead);
    await scrubRecords('deals', own.Deal);
    await scrubRecords('transactions', own.Transaction);
    // The properties' words of its names (0124), as its own above: read before the properties' texts
    // lose the names, left out once they have (its properties are found by its marker now).
    const objectWords = own.Object.length
      ? sql`select w from objects o, unnest(public.crm_search_text_words(o.search_text)) w where o.id = any(${sql.param(own.Object)}::int[])`
      : sql`select null::text where false`;
    const namesWords = String((await rowsOf(tx, sql`select coalesce(array_agg(distinct w), '{}')::text as w from (
        select unnest(public.crm_search_text_words(${a.searchText})) w union ${objectWords}) x`))[0]!.w);
    await scrubRecords('objects', own.Object);
    // After every change to the properties: object_words is locked (as a save locks it) before a word
    // goes, the order the words' prune takes them in.
    await tx.execute(sql`lock table object_words in row exclusive mode`);
    await tx.execute(sql`delete from object_search_words w where w.word = any(${namesWords}::text[])
      and not exists (select 1 from object_words x where x.word = w.word)`);

    // Alerts and answers kept for a retry: those about the account lose every name, any other the whole name and contacts.
    await tx.execute(sql`update alerts set content = ${scrub(sql.raw('content'))}, notes = ${scrub(sql.raw('notes'))}, params = (${scrub(sql.raw('params::text'))})::jsonb
      where entity = 'Account' and entity_id = ${id}`);
    await tx.execute(sql`update alerts set content = ${scrub(sql.raw('content'), strongPattern)}, notes = ${scrub(sql.raw('notes'), strongPattern)},
        params = (${scrub(sql.raw('params::text'), strongPattern)})::jsonb
      where ${hits(sql.raw('content'), strongPattern)} or ${hits(sql.raw('notes'), strongPattern)} or ${hits(sql.raw('params::text'), strongPattern)}`);
    await tx.execute(sql`delete from idempotent_requests where ${hits(sql.raw('body'), strongPattern)}`);
    // Webhook deliveries copy the logged change: those about the account or naming the person go
    // (the erasure's own event tells the receivers it happened).
    await tx.execute(sql`delete from webhook_deliveries where (entity = 'Account' and entity_id = ${id}) or ${hits(sql.raw('payload::text'), strongPattern)}`);

    // The action log: the entries about the account keep which fields changed, not to what; those
    // about the person's records lose every name, any other entry (a merge, a sign-in) the whole
    // name and contacts. The entries of its files keep no file name.
    await tx.execute(sql`update action_log set message = null,
        data = case when jsonb_typeof(data) = 'object' then (select coalesce(jsonb_object_agg(k, null::jsonb), '{}'::jsonb) from jsonb_object_keys(data) k) else null end
      where entity = 'Account' and entity_id = ${id}`);
    if (own.File.length) await tx.execute(sql`update action_log set message = null, data = null where entity = 'File' and entity_id = any(${sql.param(own.File)}::int[])`);
    const records = Object.entries(own).filter(([, ids]) => ids.length);
    if (records.length) {
      await tx.execute(sql`update action_log set message = ${scrub(sql.raw('message'))}, data = (${scrub(sql.raw('data::text'))})::jsonb,
          action_by_name = ${scrub(sql.raw('action_by_name'))}
        where (${sql.join(
          records.map(([entity, ids]) => sql`(entity = ${entity} and entity_id = any(${sql.param(ids)}::int[]))`),
          sql` or `,
        )}) and (${hits(sql.raw('message'))} or ${hits(sql.raw('data::text'))} or ${hits(sql.raw('action_by_name'))})`);
    }
    await tx.execute(sql`update action_log set message = ${scrub(sql.raw('message'), strongPattern)}, data = (${scrub(sql.raw('data::text'), strongPattern)})::jsonb,
        action_by_name = ${scrub(sql.raw('action_by_name'), strongPattern)}
      where ${hits(sql.raw('message'), strongPattern)} or ${hits(sql.raw('data::text'), strongPattern)} or ${hits(sql.raw('action_by_name'), strongPattern)}`);

    await noteFilesToRemove(tx, [...filesGone.flatMap(storedNames), ...mailFilesGone, ...sentPdfsGone]);
    await logAction(tx, caller.actor, {
      action: 'Erase',
      entity: 'Account',
      entityId: id,
      data: { filesDeleted: gone.length, mailDeleted: mailGone.messages, signInsEnded: signIns.length, shortlistsWithdrawn: withdrawn.length, activitiesUnlinked: activityIds.length, signRequestsDeleted: signing.deleted, signedDocumentsKept: signing.ids.length - signing.deleted },
    });
  });
  await removeNotedFiles(app, [...filesGone.flatMap(storedNames), ...mailFilesGone, ...sentPdfsGone]);
}
