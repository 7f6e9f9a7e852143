import { sql } from 'drizzle-orm';
import type { Tx } from '../client.ts';
import { createRng } from './demo-time.ts';
import { agencyToday, fromLocalDateTime } from '../../lib/dates.ts';

/** Cents as the exact decimal text PostgreSQL reads into numeric(14,2). */
const money = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Demo payments: the agency manages rentals for a dozen demo owners. Each month of the last half
 * year it collects the rent (income, by bank) and pays the common charges, the electricity and
 * its management fee for the owner (expenses), with a repair now and then; the newest bills are
 * not paid yet, so statements show a running balance and an unpaid count.
 */
export async function seedDemoPayments(tx: Tx, opts: { timeZone: string }) {
  const rng = createRng(20261123);
  const owners = ((await tx.execute(sql`select id from accounts where is_owner order by id limit 12`)).rows as { id: number }[]).map((r) => r.id);
  if (!owners.length) return { accounts: 0, transactions: 0 };
  const now = new Date();
  // The agency's month and clock (the server runs on UTC): a bill at 09:00 is 09:00 in the agency.
  const [thisYear, thisMonth] = agencyToday(opts.timeZone).split('-').map(Number) as [number, number];
  const pad = (n: number) => String(n).padStart(2, '0');
  const rows: ReturnType<typeof sql>[] = [];
  for (const owner of owners) {
    const rent = rng.int(45, 120) * 1000; // 450–1 200 €
    for (let m = 5; m >= 0; m--) {
      const month = new Date(Date.UTC(thisYear, thisMonth - 1 - m, 1));
      const at = (d: number, h: number) =>
        fromLocalDateTime(`${month.getUTCFullYear()}-${pad(month.getUTCMonth() + 1)}-${pad(d)}T${pad(h)}:${pad(rng.int(0, 59))}:00`, opts.timeZone, 'transactionDate');
      const last = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 0));
      const future = (d: Date) => d.getTime() > now.getTime();
      const rentAt = at(rng.int(1, 5), rng.int(9, 17));
      if (!future(rentAt)) rows.push(sql`(${owner}, 'income', ${money(rent)}, ${rentAt}, 1, 1, null, null, null, null, null)`);
      const bills: [number, number][] = [
        [21, rng.int(3000, 9000)],
        [22, rng.int(4000, 16000)],
        [29, Math.round(rent * 0.08)],
      ];
      if (rng.chance(0.2)) bills.push([25, rng.int(6000, 45000)]);
      for (const [category, cents] of bills) {
        const billAt = at(rng.int(8, 25), rng.int(9, 18));
        if (future(billAt)) continue;
        const unpaid = m === 0 && category !== 29;
        const due = new Date(billAt.getTime() + 20 * 86400e3);
        const perioded = category === 21 || category === 22;
        rows.push(sql`(${owner}, 'expense', ${money(cents)}, ${billAt}, ${category === 29 ? 1 : rng.chance(0.3) ? 2 : 1}, ${category},
          ${unpaid ? 0 : 1}, ${unpaid ? null : day(new Date(Math.min(billAt.getTime() + 3 * 86400e3, now.getTime())))}, ${day(due)},
          ${perioded ? day(month) : null}, ${perioded ? day(last) : null})`);
      }
    }
  }
  await tx.execute(sql`
    insert into transactions (account_id, type, amount, transaction_date, payment_method, category_id, status, payment_date, expiration_date, start_date, end_date)
    values ${sql.join(rows, sql`, `)}`);
  await tx.execute(sql`insert into payment_accounts (account_id, transactions_modified_on)
    select account_id, max(transaction_date) from transactions group by account_id
    on conflict (account_id) do update set transactions_modified_on = excluded.transactions_modified_on`);
  await tx.execute(sql`update accounts set has_transactions = true where id in (select account_id from payment_accounts)`);
  return { accounts: owners.length, transactions: rows.length };
}
