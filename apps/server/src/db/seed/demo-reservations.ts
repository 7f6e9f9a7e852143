import { sql } from 'drizzle-orm';
import type { Tx } from '../client.ts';
import { lcgRandom } from './demo-time.ts';
import { refDigits } from '../../lib/reference-number.ts';

type Row = Record<string, unknown>;

const GUESTS: [string, string, string][] = [
  ['Müller', 'Katrin', '+49 171 5550142'],
  ['Rossi', 'Marco', '+39 347 5550198'],
  ['Ivanova', 'Olga', '+7 916 5550177'],
  ['Smith', 'Emily', '+44 7700 900461'],
  ['Dubois', 'Claire', '+33 6 55 50 12 34'],
  ['Nowak', 'Piotr', '+48 601 555 013'],
  ['Georgiou', 'Nikos', '+30 694 555 0123'],
  ['Popescu', 'Andrei', '+40 722 555 019'],
  ['Jensen', 'Lars', '+45 20 55 50 14'],
  ['Kovač', 'Ana', '+385 91 555 0166'],
];

/**
 * Demo short-let bookings, once the demo properties exist: every short-let property gets a
 * website code and a season of stays — settled ones in the past, a guest in the house today,
 * confirmed and held ones ahead, a cancellation and a booking with a problem to sort out — from
 * the booking sites and direct, with the money split and the commissions, never two on a night.
 */
export async function seedDemoReservations(tx: Tx, opts: { timeZone: string }) {
  const rnd = lcgRandom(1010);
  const objects = (await tx.execute(sql`select id, reference_number as ref, coalesce(short_rent_price, 80)::float8 as price from objects where for_short_rent order by id limit 12`)).rows as Row[];
  if (!objects.length) return { reservations: 0 };
  await tx.execute(sql`update objects set website_code = 'TH-' || ${refDigits(sql`reference_number`)} where for_short_rent and website_code is null`);
  const clients = ((await tx.execute(sql`select id from accounts where is_client order by id limit 10`)).rows as Row[]).map((r) => r.id as number);
  const [today] = (await tx.execute(sql`select (now() at time zone ${opts.timeZone})::date::text as d`)).rows as { d: string }[];
  const day = (offset: number) => {
    const d = new Date(`${today!.d}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + offset);
    return d.toISOString().slice(0, 10);
  };
  const rows: Row[] = [];
  let n = 0;
  for (const o of objects) {
    // From six weeks ago to eight weeks ahead, stays of 2 to 8 nights with a free night or more between.
    let start = -42 + Math.floor(rnd() * 5);
    while (start < 56) {
      const nights = 2 + Math.floor(rnd() * 7);
      const end = start + nights;
      const [last, first, phone] = GUESTS[(n * 7 + Math.floor(rnd() * 3)) % GUESTS.length]!;
      const cancelled = rnd() < 0.08;
      const stage = cancelled ? 7 : end <= -10 ? 6 : end <= 0 ? 5 : start <= 0 ? 4 : start < 14 ? 3 : rnd() < 0.5 ? 2 : 3;
      const source = [3, 4, 1, 2, 5, 8][Math.floor(rnd() * 6)]!;
      const total = Math.round((o.price as number) * nights * 100) / 100;
      const pre = Math.round(total * 30) / 100;
      const commission = Math.round(total * 20) / 100;
      const third = source === 3 || source === 4 ? Math.round(total * 15) / 100 : null;
      const paid = stage >= 4 && stage !== 7;
      rows.push({
        stage,
        booking: day(start - 10 - Math.floor(rnd() * 50)),
        object: o.id,
        checkIn: day(start),
        nights,
        adults: 1 + Math.floor(rnd() * 4),
        children: rnd() < 0.3 ? 1 + Math.floor(rnd() * 2) : 0,
        planned: `${14 + Math.floor(rnd() * 7)}:${rnd() < 0.5 ? '00' : '30'}`,
        actual: stage >= 4 && stage !== 7 ? `${15 + Math.floor(rnd() * 5)}:${rnd() < 0.5 ? '15' : '45'}` : null,
        account: clients.length && rnd() < 0.2 ? clients[n % clients.length] : null,
        last,
        first,
        phone,
        source,
        external: source === 3 ? `HM${(4100000 + n * 7919).toString(36).toUpperCase()}` : source === 4 ? String(3100000000 + n * 104729) : null,
        link: source === 3 ? 'https://www.airbnb.com/hosting/reservations' : source === 4 ? 'https://admin.booking.com/' : null,
        problem: !cancelled && rnd() < 0.06 ? 'Ο επισκέπτης ζήτησε πρώιμη άφιξη· να επιβεβαιωθεί με την καθαρίστρια.' : null,
        awaiting: stage === 2 ? 'Αναμένεται η προκαταβολή μέσω τράπεζας.' : null,
        total,
        totalDone: paid,
        preBank: pre,
        preBankDone: stage !== 2 && stage !== 7,
        restCash: Math.round((total - pre) * 100) / 100,
        restCashDone: paid,
        owner: Math.round((total - commission) * 100) / 100,
        ownerPaid: stage === 6,
        ownerType: stage === 6 ? 1 : null,
        ownerDate: stage === 6 ? day(end + 5) : null,
        commission,
        third,
      });
      n++;
      start = end + 1 + Math.floor(rnd() * 6);
    }
  }
  await tx.execute(sql`
    insert into reservations (reservation_stage, booking_date, object_id, check_in, duration, adults, children, arrival_time_planned,
      arrival_time_actual, client_account_id, client_last_name, client_first_name, client_phone, source_id, reservation_number_external,
      external_link, problem, awaiting, total, total_done, prepayment_bank, prepayment_bank_done, rest_cash, rest_cash_done,
      payment_to_owner, owner_payments, payment_type, owner_payment_date, comission, comission3rd_party)
    select r.stage, r.booking::date, r.object, r."checkIn"::date, r.nights, r.adults, r.children, r.planned, r.actual, r.account, r.last, r.first,
      r.phone, r.source, r.external, r.link, r.problem, r.awaiting, r.total, r."totalDone", r."preBank", r."preBankDone", r."restCash",
      r."restCashDone", r.owner, r."ownerPaid", r."ownerType", r."ownerDate"::date, r.commission, r.third
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(stage int, booking text, object int, "checkIn" text, nights int, adults int,
      children int, planned text, actual text, account int, last text, first text, phone text, source int, external text, link text,
      problem text, awaiting text, total numeric, "totalDone" boolean, "preBank" numeric, "preBankDone" boolean, "restCash" numeric,
      "restCashDone" boolean, owner numeric, "ownerPaid" boolean, "ownerType" int, "ownerDate" text, commission numeric, third numeric)`);
  return { reservations: rows.length };
}
