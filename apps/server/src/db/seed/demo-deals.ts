import { sql } from 'drizzle-orm';
import type { Tx } from '../client.ts';

type Row = Record<string, unknown>;

/**
 * Demo deals, once the demo properties, owners, clients, specialists and leads exist: sales of
 * flats and houses and long lets spread over every stage (a few closed, one cancelled), each with
 * its owner as seller or landlord, a client from a lead as buyer or tenant, a lawyer, a notary and
 * a civil engineer on the sales that got that far, and the employee in charge. Closed deals mark
 * their property sold or rented and count for their specialists, as closing one in the app does.
 */
export async function seedDemoDeals(tx: Tx) {
  const objects = (await tx.execute(sql`
    select o.id, o.for_sale, o.sale_price::float8 as sale, o.rent_price::float8 as rent,
      (select l.account_id from object_accounts l where l.object_id = o.id and l.relation = 1 order by l.account_id limit 1) as owner
    from objects o where (o.for_sale and o.sale_price is not null) or (o.for_rent and o.rent_price is not null) order by o.id limit 40`)).rows as Row[];
  const leads = (await tx.execute(sql`select id, account_id from leads where account_id is not null order by id limit 40`)).rows as Row[];
  const ids = async (flag: string) => ((await tx.execute(sql.raw(`select id from accounts where ${flag} order by id limit 10`))).rows as Row[]).map((r) => r.id as number);
  const lawyers = await ids('is_lawyer');
  const notaries = await ids('is_notary');
  const engineers = await ids('is_construction_engineer');
  const employees = await ids('is_employe');
  if (objects.length < 4 || !leads.length) return { deals: 0 };

  // Stage per deal, in order: most in progress, some closed, one cancelled.
  const STAGES = [1, 1, 2, 2, 3, 4, 5, 1, 2, 3, 5, 6, 4, 1, 5, 2];
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86400000).toISOString().slice(0, 10);
  let count = 0;
  const closedObjects: number[] = [];
  for (const [i, stage] of STAGES.entries()) {
    const o = objects[(i * 5) % objects.length]!;
    const lead = leads[(i * 3) % leads.length]!;
    const sale = o.for_sale === true && o.sale != null;
    const type = sale ? 2 : 1;
    const asking = (sale ? o.sale : o.rent) as number;
    const price = stage >= 2 ? Math.round((asking * (sale ? 0.95 : 1)) / (sale ? 1000 : 10)) * (sale ? 1000 : 10) : null;
    const started = 10 + i * 6;
    const [deal] = (
      await tx.execute(sql`
      insert into deals (object_id, demand_id, deal_type, deal_stage, asking_price, price, deposit, commission, date_of_deposit, start_date, end_date,
        contract_duration_months, rent_start, rent_expiration, notes, created_on, modified_on)
      values (${o.id}, ${lead.id}, ${type}, ${stage}, ${asking}, ${price}, ${stage >= 2 ? Math.round(asking * (sale ? 0.1 : 2)) : null},
        ${sale ? Math.round(asking * 0.02) : asking}, ${stage >= 2 ? day(started - 5) : null}, ${day(started)}, ${stage === 5 ? day(Math.max(0, started - 40)) : null},
        ${sale ? 2 : null}, ${sale ? null : day(started - 20)}, ${sale ? null : day(started - 20 - 365)}, ${stage === 6 ? 'Ο αγοραστής δεν πήρε δάνειο.' : null},
        now() - make_interval(days => ${started}), now() - make_interval(days => ${Math.max(0, started - 8)}))
      returning id`)
    ).rows as { id: number }[];
    const parties: [number | null | undefined, number][] = [
      [o.owner as number | null, 1],
      [lead.account_id as number, 2],
      [sale && stage >= 2 ? lawyers[i % Math.max(1, lawyers.length)] : null, 3],
      [sale && stage >= 3 ? notaries[i % Math.max(1, notaries.length)] : null, 4],
      [sale && stage >= 3 && i % 2 === 0 ? engineers[i % Math.max(1, engineers.length)] : null, 5],
      [employees[i % Math.max(1, employees.length)], 6],
    ];
    let position = 0;
    for (const [account, relation] of parties) {
      if (account == null) continue;
      await tx.execute(sql`insert into deal_parties (deal_id, account_id, relation, position) values (${deal!.id}, ${account}, ${relation}, ${position++}) on conflict do nothing`);
    }
    if (stage === 5) {
      closedObjects.push(o.id as number);
      if (sale)
        await tx.execute(sql`update accounts set number_of_sold_objects = number_of_sold_objects + 1
          where id in (select distinct account_id from deal_parties where deal_id = ${deal!.id} and relation in (3, 4, 5, 7))`);
    }
    count++;
  }
  for (const id of closedObjects) {
    await tx.execute(sql`update objects o set
      sold = exists (select 1 from deals d where d.object_id = o.id and d.deal_type = 2 and d.deal_stage = 5),
      rented = o.rented or exists (select 1 from deals d where d.object_id = o.id and d.deal_type = 1 and d.deal_stage = 5
        and (d.rent_expiration is null or d.rent_expiration >= crm_today()))
      where o.id = ${id}`);
  }
  return { deals: count };
}
