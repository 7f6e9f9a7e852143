import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

/**
 * An account that gains e-mail addresses (a new account, an edit, a merge) is linked to the mail
 * already synced from or to them (from, to, cc; addresses are kept in lower case), in one statement,
 * in the save's transaction. Only the addresses it did not have before are looked for.
 */
export async function linkMailToNewAddresses(tx: Pick<Tx, 'execute'>, accountId: number, before: readonly string[], after: readonly string[]) {
  const had = new Set(before.map((e) => e.trim().toLowerCase()));
  const added = [...new Set(after.map((e) => e.trim().toLowerCase()))].filter((e) => e && !had.has(e));
  if (!added.length) return;
  const list = sql`${sql.param(added)}::text[]`;
  await tx.execute(sql`insert into mail_message_accounts (message_id, account_id, sent_on)
    select m.id, ${accountId}, m.sent_on from mail_messages m
    where lower(m."from"->>'address') = any(${list})
      or exists (select 1 from jsonb_array_elements(m."to" || m.cc) x where lower(x->>'address') = any(${list}))
    on conflict do nothing`);
}

/**
 * A person's data erased (decision 051): the messages linked to the account go, with their
 * attachments' rows; answers the attachments' stored names, for the caller to delete once committed.
 */
export async function eraseAccountMail(tx: Pick<Tx, 'execute'>, accountId: number): Promise<{ messages: number; files: string[] }> {
  const mine = sql`select message_id from mail_message_accounts where account_id = ${accountId}`;
  const files = (await tx.execute(sql`delete from mail_attachments where message_id in (${mine}) returning system_name`)).rows.map((r) => String(r.system_name));
  const messages = (await tx.execute(sql`delete from mail_messages where id in (${mine}) returning id`)).rows.length;
  return { messages, files };
}

/** The person's mail for the personal-data export: when, what about, from and to whom. */
export async function accountMailList(tx: Pick<Tx, 'execute'>, accountId: number) {
  const rows = (
    await tx.execute(sql`select m.sent_on, m.subject, m."from"->>'address' as "from",
        (select string_agg(x->>'address', '; ') from jsonb_array_elements(m."to" || m.cc) x) as "to"
      from mail_message_accounts l join mail_messages m on m.id = l.message_id where l.account_id = ${accountId} order by m.sent_on nulls last, m.id`)
  ).rows as { sent_on: Date | string | null; subject: string; from: string | null; to: string | null }[];
  return rows;
}
