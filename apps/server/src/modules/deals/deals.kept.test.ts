// The deals' totals kept per type and stage (decision 072) against the same totals summed from the
// deals, after random changes (new deals, stages moved, types swapped, prices and commissions set
// and cleared, deals deleted, several in one statement): the list's count and footer for every
// type and stages filter, and the board's columns, are equal.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DEAL_STAGES, DEAL_STAGE_CANCELLED } from '@crm/contract';
import { createTestApp } from '../../../test/harness.ts';
import { ZDealBoardAnswer } from '@crm/contract';
import { dealBoard, dealTotals, keptDealTotals, keptStageTotals, stageTotals } from './deals.service.ts';
import { seededRandom } from '../../../test/seeded.ts';

const t = await createTestApp({}, undefined, { jobs: false });
const { app, db } = t;
const agent = await t.user({ roles: ['employee'] });

const { SEED, pick, chance, between } = seededRandom('DEAL_TEST_SEED');
const money = () => (chance(0.25) ? null : between(0, 900000) / (chance(0.5) ? 1 : 100));
const ids = async () => ((await db.execute<{ id: number }>(sql`select id from deals order by id`)).rows).map((r) => r.id);

async function change() {
  const all = await ids();
  const one = all.length ? pick(all) : 0;
  switch (between(0, 6)) {
    case 0:
      await db.execute(sql`insert into deals (deal_type, deal_stage, asking_price, price, commission) values (${pick([1, 2])}, ${pick(DEAL_STAGES)}, ${money()}, ${money()}, ${money()})`);
      break;
    case 1:
      await db.execute(sql`update deals set deal_stage = ${pick(DEAL_STAGES)} where id = ${one}`);
      break;
    case 2:
      await db.execute(sql`update deals set deal_type = 3 - deal_type where id = ${one}`);
      break;
    case 3:
      await db.execute(sql`update deals set price = ${money()}, asking_price = ${money()}, commission = ${money()} where id = ${one}`);
      break;
    case 4:
      await db.execute(sql`delete from deals where id = ${one}`);
      break;
    case 5: // written without a change to what is totalled
      await db.execute(sql`update deals set notes = ${`note ${between(1, 99)}`} where id = ${one}`);
      break;
    case 6: // several in one statement
      await db.execute(sql`update deals set deal_stage = ${pick(DEAL_STAGES)}, commission = null where id % ${between(2, 5)} = 0`);
      break;
  }
}

const filters = () => [
  {},
  { dealType: pick([1, 2]) },
  { stages: [pick(DEAL_STAGES)] },
  { dealType: pick([1, 2]), stages: [pick(DEAL_STAGES), pick(DEAL_STAGES)] },
  { stages: [DEAL_STAGE_CANCELLED, pick(DEAL_STAGES)] },
];
const where = (f: { dealType?: number; stages?: number[] }) => {
  const parts = [f.dealType ? sql`deal_type = ${f.dealType}` : undefined, f.stages?.length ? sql`deal_stage = any(${sql.param(f.stages)}::smallint[])` : undefined].filter(Boolean);
  return parts.length ? sql.join(parts as ReturnType<typeof sql>[], sql` and `) : undefined;
};
const sorted = (rows: unknown[]) => [...(rows as { stage: number }[])].sort((a, b) => a.stage - b.stage);

async function compare(round: number) {
  for (const f of filters()) {
    for (const withCancelled of [false, true]) {
      expect(await keptDealTotals(db, f, withCancelled), `round ${round}, ${JSON.stringify(f)} ${withCancelled}, seed ${SEED}`).toEqual(await dealTotals(db, where(f), withCancelled));
    }
    // The board as served (kept while nothing changes) and as made on the spot.
    const body = { dealType: f.dealType ?? null, perStage: 5 };
    const served = await agent.post('/api/Deal/board', body, { lang: 'el' });
    expect(served.statusCode, served.body).toBe(200);
    const made = ZDealBoardAnswer.parse(await dealBoard(app, { ...body, stages: [] } as never, (k, p) => app.translator.t('el', k, p), 'el'));
    expect(served.json(), `round ${round}, board served, seed ${SEED}`).toEqual(JSON.parse(JSON.stringify(made)));
    const typeOnly = { dealType: f.dealType };
    const w = where(typeOnly);
    expect(sorted((await keptStageTotals(db, typeOnly)).rows), `round ${round}, board ${JSON.stringify(typeOnly)}, seed ${SEED}`).toEqual(sorted((await stageTotals(db, w ? sql`where ${w}` : sql``)).rows));
  }
}

describe('kept deal totals', () => {
  it('are the totals summed from the deals, after random changes', async () => {
    await compare(0);
    for (let i = 0; i < 30; i++) await change();
    for (let round = 1; round <= 15; round++) {
      for (let k = between(1, 8); k > 0; k--) await change();
      // The deltas added into the totals now and then (the job every minute): the same answers either way.
      if (round % 4 === 0) await db.execute(sql`select crm_deal_totals_fold()`);
      await compare(round);
    }
    // And made again from the deals (a bulk load), the same.
    await db.execute(sql`select crm_deal_totals_fold()`);
    const before = (await db.execute(sql`select * from deal_totals where n <> 0 order by 1, 2`)).rows;
    await db.execute(sql`select crm_deal_totals_rebuild()`);
    expect((await db.execute(sql`select * from deal_totals order by 1, 2`)).rows).toEqual(before);
  }, 120_000);
});
