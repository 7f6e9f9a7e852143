import { sql } from 'drizzle-orm';
import type { Tx } from '../client.ts';

/**
 * The demo agency's mandates (decision 079): the first published properties with an owner hold their
 * owner's written mandate — an exclusive one ending within 30 days (its alerts come at once), two
 * exclusive ones in force for months yet, a simple one for a year — with the owner's tax office and
 * a named exception; dates from the agency's day, so the demo stays current whenever it is loaded.
 */
export async function seedDemoMandates(tx: Tx): Promise<{ mandates: number }> {
  const rows = (
    await tx.execute(sql`
      select o.id, o.sale_price, (select l.account_id from object_accounts l where l.object_id = o.id and l.relation = 1 order by l.account_id limit 1) as owner
      from objects o
      where o.published and exists (select 1 from object_accounts l where l.object_id = o.id and l.relation = 1)
      order by o.reference_number
      limit 4`)
  ).rows as { id: number; sale_price: string | null; owner: number }[];
  const plans = [
    { kind: 'exclusive', start: sql`crm_today() + 20 - interval '8 months'`, end: sql`crm_today() + 20`, office: 'Δ΄ Θεσσαλονίκης', exception: 'Δημήτριος Καραγιάννης' },
    { kind: 'exclusive', start: sql`crm_today() - interval '2 months'`, end: sql`crm_today() + interval '6 months'`, office: 'Καλαμαριάς', exception: null },
    { kind: 'simple', start: sql`crm_today() - interval '1 month'`, end: sql`crm_today() + interval '11 months'`, office: 'Α΄ Θεσσαλονίκης', exception: null },
    { kind: 'exclusive', start: sql`crm_today() - interval '3 months'`, end: sql`crm_today() + interval '5 months'`, office: 'Ε΄ Θεσσαλονίκης', exception: 'Ελένη Παπαδάκη' },
  ] as const;
  let made = 0;
  for (const [i, o] of rows.entries()) {
    const p = plans[i]!;
    const exceptions = p.exception ? [{ name: p.exception, note: 'Ενδιαφέρθηκε πριν από την εντολή.' }] : [];
    const res = await tx.execute(sql`insert into object_mandates (object_id, kind, start_date, end_date, asking_price, commission_percent, exceptions)
      values (${o.id}, ${p.kind}, (${p.start})::date, (${p.end})::date, ${o.sale_price}, 2, ${JSON.stringify(exceptions)}::jsonb) returning id`);
    const id = (res.rows[0] as { id: number }).id;
    await tx.execute(sql`insert into object_mandate_owners (mandate_id, account_id, tax_office) values (${id}, ${o.owner}, ${p.office})`);
    made++;
  }
  return { mandates: made };
}
