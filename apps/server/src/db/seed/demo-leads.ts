import { sql } from 'drizzle-orm';
import type { Tx } from '../client.ts';
import { lcgRandom } from './demo-time.ts';

type Row = Record<string, unknown>;

/** What the client asked for, as the agent notes it: in Greek, the office's working language. */
const DESCRIPTIONS = [
  'Οικογένεια με δύο παιδιά· κοντά σε σχολείο, με θέση στάθμευσης.',
  'Μετακομίζει από την Αθήνα την άνοιξη· θέλει να δει ακίνητα σε ένα Σαββατοκύριακο.',
  'Επενδυτής: ζητά διαμέρισμα που νοικιάζεται εύκολα σε φοιτητές.',
  'Συνταξιούχοι· ισόγειο ή πολυκατοικία με ασανσέρ.',
  'Εργάζεται από το σπίτι· χρειάζεται ήσυχο δωμάτιο για γραφείο και καλό ίντερνετ.',
  'Θέλει θέα στη θάλασσα· ευέλικτος ως προς την περιοχή.',
  'Χρειάζεται τα κλειδιά πριν από τον Σεπτέμβριο, για τη σχολική χρονιά.',
  'Εξοχική κατοικία για το καλοκαίρι· κατά προτίμηση πρώτη γραμμή από τη θάλασσα.',
];

/**
 * What clients said of a property at a viewing, by what they made of it (the result), as the
 * agents note it in Greek. Chosen by position, not by the random sequence, so the rest of the demo
 * stays as it was.
 */
const COMMENTS: Record<number, (string | null)[]> = {
  2: ['Της άρεσε η θέα από το μπαλκόνι.', 'Φωτεινό και ήσυχο· το συζητά με τον σύζυγό της.', null],
  3: ['Θέλει να το ξαναδεί με τη γυναίκα του το Σάββατο.', 'Να το δει ξανά με τον μηχανικό του για την υγρασία στο μπάνιο.'],
  4: ['Έκανε προσφορά 5% κάτω από τη ζητούμενη τιμή.', 'Προσφορά με την προϋπόθεση να μείνουν τα έπιπλα της κουζίνας.'],
  5: ['Πολύ σκοτεινό, βλέπει σε φωταγωγό.', 'Η κουζίνα θέλει ανακαίνιση και το θεωρεί ακριβό για ό,τι προσφέρει.', 'Δεν θέλει ισόγειο.', null],
  7: [null],
};

/**
 * Demo leads and viewings, once the demo clients and properties exist: each demo client asks for
 * something the agency has (a service, a budget around real prices, a place), some properties are
 * already offered, and viewings fill the last three weeks (with results) and the next two (planned),
 * assigned to the demo employees, so the lists, the matches and the calendar have a believable day.
 */
export async function seedDemoLeads(tx: Tx, opts: { timeZone: string }) {
  const rnd = lcgRandom(20261122);
  const pick = <T>(list: T[]) => list[Math.floor(rnd() * list.length)]!;
  const clients = (await tx.execute(sql`select id, service, source_id from accounts where is_client order by id limit 90`)).rows as Row[];
  const employees = ((await tx.execute(sql`select id from accounts where is_employe order by id`)).rows as Row[]).map((r) => r.id as number);
  const objects = (await tx.execute(sql`
    select o.id, o.for_sale, o.for_rent, o.for_short_rent, o.sale_price::float8 as sale, o.rent_price::float8 as rent, o.short_rent_price::float8 as short,
      o.object_sub_type_id as sub, o.area::float8 as area, o.bedrooms, l.parent_id as municipality
    from objects o left join locations l on l.id = o.location_id where not o.sold order by o.id`)).rows as Row[];
  if (!clients.length || !objects.length) return { leads: 0, viewings: 0 };
  const sources = ((await tx.execute(sql`select id from accounts where is_source order by id`)).rows as Row[]).map((r) => r.id as number);

  let leadCount = 0;
  const leadObjects: { lead: number; objects: number[] }[] = [];
  for (const [i, c] of clients.entries()) {
    // The property the client was first interested in sets the request around it.
    const o = objects[(i * 7) % objects.length]!;
    const svc = o.for_sale ? 'purchase' : o.for_rent ? 'rent' : 'short';
    const price = (svc === 'purchase' ? o.sale : svc === 'rent' ? o.rent : o.short) as number | null;
    const round = (n: number, to: number) => Math.round(n / to) * to;
    const step = svc === 'purchase' ? 5000 : 50;
    const lo = price ? round(price * (0.8 + rnd() * 0.1), step) : null;
    const hi = price ? round(price * (1.02 + rnd() * 0.12), step) : null;
    const stage = i % 11 === 0 ? 7 : i % 13 === 0 ? 6 : 1 + (i % 5);
    const createdDaysAgo = Math.floor(rnd() * 120);
    const [lead] = (
      await tx.execute(sql`
      insert into leads (account_id, source, stage, priority, start_date, for_purchase, for_rent, for_short_rent,
        purchase_budget_range_min, purchase_budget_range_max, rent_budget_range_min, rent_budget_range_max,
        short_rent_budget_range_min, short_rent_budget_range_max, location_id, object_sub_types, area_min, area_max, bedrooms_min, features,
        description, created_on, modified_on)
      values (${c.id}, ${c.source_id ?? (sources.length ? pick(sources) : null)}, ${stage}, ${1 + (i % 4)},
        (now() - make_interval(days => ${createdDaysAgo}))::date,
        ${svc === 'purchase'}, ${svc === 'rent'}, ${svc === 'short'},
        ${svc === 'purchase' ? lo : null}, ${svc === 'purchase' ? hi : null}, ${svc === 'rent' ? lo : null}, ${svc === 'rent' ? hi : null},
        ${svc === 'short' ? lo : null}, ${svc === 'short' ? hi : null},
        ${(o.municipality as number | null) ?? null}, ${o.sub != null && rnd() < 0.6 ? sql`array[${o.sub}]::smallint[]` : sql`'{}'::smallint[]`},
        ${o.area ? Math.max(20, round((o.area as number) * 0.85, 5)) : null}, null,
        ${o.bedrooms != null && (o.bedrooms as number) > 0 ? Math.max(1, (o.bedrooms as number) - (rnd() < 0.5 ? 1 : 0)) : null},
        ${rnd() < 0.4 ? sql`array['parking']::text[]` : rnd() < 0.5 ? sql`array['elevator', 'airCondition']::text[]` : sql`'{}'::text[]`},
        ${pick(DESCRIPTIONS)}, now() - make_interval(days => ${createdDaysAgo}), now() - make_interval(days => ${Math.floor(createdDaysAgo / 2)}))
      returning id`)
    ).rows as Row[];
    leadCount++;
    const offered = [o.id as number, ...(rnd() < 0.5 ? [objects[(i * 7 + 3) % objects.length]!.id as number] : [])].filter((v, k, a) => a.indexOf(v) === k);
    if (stage !== 1) {
      for (const [pos, oid] of offered.entries()) await tx.execute(sql`insert into lead_objects (lead_id, object_id, position) values (${lead!.id}, ${oid}, ${pos}) on conflict do nothing`);
      leadObjects.push({ lead: lead!.id as number, objects: offered });
    }
    if (employees.length) await tx.execute(sql`insert into assignments (parent, parent_id, account_id) values (2, ${lead!.id}, ${pick(employees)}) on conflict do nothing`);
  }

  // Viewings: the last three weeks (with results) and the next two (planned), working hours.
  let viewingCount = 0;
  for (const [i, lo] of leadObjects.entries()) {
    if (i % 3 === 2) continue;
    const dayOffset = -21 + Math.floor(rnd() * 35);
    const hour = 9 + Math.floor(rnd() * 9);
    const minute = rnd() < 0.5 ? 0 : 30;
    const past = dayOffset < 0;
    const results = lo.objects.map((_, k) => (past ? [2, 5, 3, 4, 7][(i + k) % 5]! : 1));
    const overall = [4, 3, 2, 1, 5, 7, 6].find((r) => results.includes(r)) ?? null;
    const [v] = (
      await tx.execute(sql`
      insert into viewings (appointment_created, date_of_viewing, demand_id, result, created_on, modified_on)
      values (
        (date_trunc('day', now() at time zone ${opts.timeZone}) + make_interval(days => ${dayOffset - 3}, hours => 10)) at time zone ${opts.timeZone},
        (date_trunc('day', now() at time zone ${opts.timeZone}) + make_interval(days => ${dayOffset}, hours => ${hour}, mins => ${minute})) at time zone ${opts.timeZone},
        ${lo.lead}, ${overall}, now() - make_interval(days => ${Math.max(0, -dayOffset + 3)}), now())
      returning id`)
    ).rows as Row[];
    for (const [pos, oid] of lo.objects.entries()) {
      const said = COMMENTS[results[pos]!] ?? [null];
      await tx.execute(sql`insert into viewing_objects (viewing_id, object_id, result, comment, position) values (${v!.id}, ${oid}, ${results[pos]!}, ${said[(i + pos) % said.length]!}, ${pos})`);
    }
    if (employees.length) await tx.execute(sql`insert into assignments (parent, parent_id, account_id) values (3, ${v!.id}, ${employees[i % employees.length]!}) on conflict do nothing`);
    viewingCount++;
  }
  return { leads: leadCount, viewings: viewingCount };
}
