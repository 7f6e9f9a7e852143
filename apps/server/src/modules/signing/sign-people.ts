import { sql, type SQL } from 'drizzle-orm';
import { DEAL_RELATION, OWNER_RELATION, TENANT_RELATION, type TDocSource, type TSigner } from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { agencyToday } from '../../lib/dates.ts';
import { badRequest } from '../../lib/errors.ts';

/**
 * The people of a document sent for signature (decision 086): who may sign it (the record's parties
 * with their e-mail), which account a request went to, and what a person's data export and erasure
 * (decision 051) do with the requests sent to them.
 */

type Row = Record<string, unknown>;
const NAME = sql`coalesce(nullif(concat_ws(' ', nullif(btrim(a.first_name), ''), nullif(btrim(a.last_name), '')), ''), a.display_name)`;
const ROLE_OF_DEAL: Record<number, TSigner['role']> = { [DEAL_RELATION.seller]: 'seller', [DEAL_RELATION.buyer]: 'buyer' };

/** A deal's sellers, then its buyers (the parties an offer agreement or a sale's handover names). */
const dealParties = (dealId: number) =>
  sql`select a.id, ${NAME} as name, a.emails, p.relation as rel from deal_parties p join accounts a on a.id = p.account_id
    where p.deal_id = ${dealId} and p.relation in (${DEAL_RELATION.seller}, ${DEAL_RELATION.buyer}) and a.erased_on is null order by p.relation, p.position, p.id`;

/**
 * Who may sign a record's document, in the document's order, those with an e-mail first: a mandate's
 * owners; an offer's sellers and buyers; a handover protocol's current owners and tenant, or (with
 * `dealId`, the deal of that property) the deal's sellers and buyers. A deal of another property: 400.
 */
export async function signersOf(db: Db | Tx, source: TDocSource, id: number, timeZone: string, dealId?: number): Promise<TSigner[]> {
  let q: SQL;
  let role: (r: Row) => TSigner['role'];
  if (source === 'mandate') {
    q = sql`select a.id, ${NAME} as name, a.emails from object_mandate_owners o join accounts a on a.id = o.account_id
      where o.mandate_id = ${id} and a.erased_on is null order by o.position, a.id`;
    role = () => 'owner';
  } else if (source === 'offer' || dealId !== undefined) {
    if (source === 'handover') {
      const deal = (await db.execute(sql`select object_id from deals where id = ${dealId!}`)).rows[0] as { object_id: number | null } | undefined;
      if (!deal || Number(deal.object_id) !== id) throw badRequest('signing.dealOtherProperty');
    }
    q = dealParties(source === 'offer' ? id : dealId!);
    role = (r) => ROLE_OF_DEAL[Number(r.rel)] ?? 'buyer';
  } else {
    q = sql`select distinct on (a.id) a.id, ${NAME} as name, a.emails, oa.relation as rel, oa.created_on from object_accounts oa join accounts a on a.id = oa.account_id
      where oa.object_id = ${id} and oa.relation in (${OWNER_RELATION}, ${TENANT_RELATION}) and a.erased_on is null
        and (oa.end_date is null or oa.end_date >= ${agencyToday(timeZone)}::date) order by a.id, oa.relation`;
    q = sql`select * from (${q}) x order by x.rel, x.created_on, x.id`;
    role = (r) => (Number(r.rel) === TENANT_RELATION ? 'tenant' : 'owner');
  }
  const rows = (await db.execute(q)).rows as Row[];
  const list = rows
    .filter((r) => typeof r.name === 'string' && r.name.trim() !== '')
    .map((r) => ({ accountId: Number(r.id), name: String(r.name), email: ((r.emails as string[] | null) ?? []).map((e) => e.trim()).find(Boolean) ?? null, role: role(r) }));
  return [...list.filter((s) => s.email), ...list.filter((s) => !s.email)];
}

/**
 * The account a request goes to: the record's party with that e-mail, else the one account (not
 * erased) that has it; null when none or several do.
 */
export async function signerAccount(db: Db | Tx, signers: TSigner[], email: string): Promise<number | null> {
  const e = email.trim().toLowerCase();
  const party = signers.find((s) => s.email?.toLowerCase() === e);
  if (party) return party.accountId;
  const rows = (await db.execute(sql`select a.id from accounts a where a.erased_on is null and exists (select 1 from unnest(a.emails) m where lower(btrim(m)) = ${e}) limit 2`)).rows as Row[];
  return rows.length === 1 ? Number(rows[0]!.id) : null;
}

/**
 * The requests sent to a person: those naming the account, and (sent before 0096, or to an address
 * no account was found for) those naming no account, sent to one of its e-mail addresses or sign-ins.
 * A request naming another account is that person's, even at an address they share (a couple): never
 * in this one's export nor touched by this one's erasure.
 */
const requestsOf = (accountId: number, emails: string[]) =>
  sql`(r.signer_account_id = ${accountId} or r.signer_account_id is null and lower(r.signer_email) = any(${sql.param(emails.map((e) => e.trim().toLowerCase()).filter(Boolean))}::text[]))`;

/** The person's sign requests for the personal-data export: the document, the link's dates, and once signed what they typed and from where. */
export async function personalSignRequests(db: Db | Tx, accountId: number, emails: string[]) {
  return (
    await db.execute(sql`select r.id, r.document_name, r.sent_on, r.sent_by_name, r.signer_name, r.signer_email, r.expires_on, r.revoked_on, r.signed_on,
        r.signed_name, r.signed_ip, r.signed_user_agent, r.pdf_sha256, r.signed_sha256,
        -- Its status as the record's page says it (by the record's version; what the document prints is not made again here).
        case when r.signed_on is not null then 'signed' when r.revoked_on is not null then 'revoked'
          when (case r.source when 'mandate' then (select m.version from object_mandates m where m.id = r.source_id)
                when 'offer' then (select d.version from deals d where d.id = r.source_id)
                else (select o.version from objects o where o.id = r.source_id) end) is distinct from r.source_version then 'voided'
          when r.expires_on <= now() then 'expired' else 'sent' end as status
      from sign_requests r where ${requestsOf(accountId, emails)} order by r.sent_on, r.id`)
  ).rows as Row[];
}

/**
 * A person's sign requests at their erasure (decision 086). A request never signed is no record the
 * law keeps: it goes, with the PDF it sent. A signed one is the agency's proof of the contract (the
 * mandate's written form, the agreement): the signed copy among the record's files, the PDF sent and
 * both hashes stay, since the copy's last page is the evidence; the row keeps no name, e-mail, address
 * or device of its own (they are on that page). Returns the ids (for the log's scrub) and the stored
 * PDFs to delete once the transaction has committed.
 */
export async function eraseSignRequests(tx: Tx, accountId: number, emails: string[], marker: string) {
  const match = requestsOf(accountId, emails);
  const all = (await tx.execute(sql`select r.id from sign_requests r where ${match}`)).rows.map((r) => Number((r as Row).id));
  const gone = (await tx.execute(sql`delete from sign_requests r where ${match} and r.signed_on is null returning r.id, r.pdf_system_name`)).rows as Row[];
  await tx.execute(sql`update sign_requests r set signer_name = ${marker}, signed_name = ${marker}, signer_email = ${`${marker.replace('#', 'erased-')}@invalid`},
      signed_ip = null, signed_user_agent = null, signer_account_id = null, version = version + 1
    where ${match} and r.signed_on is not null`);
  // The log of the signature: the name as typed (it may differ from the account's) and which address and
  // device signed go; they are on the signed copy, not here. The signer "did" the signature and filed its copy.
  if (all.length) {
    const ids = sql.param(all.map(String));
    await tx.execute(sql`update action_log set action_by_name = ${marker},
        data = data || jsonb_build_object('signedName', ${marker}::text, 'ip', null, 'userAgent', null)
      where entity = 'SignRequest' and entity_id = any(${sql.param(all)}::int[]) and action = 'Sign' and jsonb_typeof(data) = 'object'`);
    await tx.execute(sql`update action_log set action_by_name = ${marker}
      where entity = 'File' and action = 'Create' and action_by is null and data->>'signRequestId' = any(${ids}::text[])`);
  }
  return { ids: all, deleted: gone.length, files: gone.map((r) => String(r.pdf_system_name)) };
}
