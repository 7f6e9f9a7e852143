import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { connectDb, type DbHandle } from '../db/client.ts';
import { backoffSeconds, JobRunner } from './runner.ts';

let t: TestApp;
const handles: DbHandle[] = [];
const runners: JobRunner[] = [];

/** Another app instance's runner: its own pool on the same database. */
function instance(opts: ConstructorParameters<typeof JobRunner>[2] = {}) {
  const h = connectDb(t.dbUrl, 3);
  handles.push(h);
  const r = new JobRunner(h.db, t.app.log, { pollMs: 100, leaseSeconds: 2, ...opts });
  runners.push(r);
  return r;
}

async function job(id: number) {
  const res = await t.db.execute(sql`select state, attempts, last_error as "lastError", run_at as "runAt", started_on as "startedOn" from jobs where id = ${id}`);
  return res.rows[0] as { state: string; attempts: number; lastError: string | null; runAt: Date; startedOn: Date | null };
}

/** Returns once `check` holds (asked again every 50 ms, for at most 10 s). */
const until = (check: () => Promise<boolean>) =>
  vi.waitFor(
    async () => {
      if (!(await check())) throw new Error('not yet');
    },
    { timeout: 10_000, interval: 50 },
  );

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  for (const r of runners) await r.stop();
  for (const h of handles) await h.close();
});

describe('job runner', () => {
  it('backs off exponentially, capped at an hour', () => {
    expect([1, 2, 3, 4].map((a) => backoffSeconds(30, a))).toEqual([30, 60, 120, 240]);
    expect(backoffSeconds(30, 20)).toBe(3600);
  });

  it('runs each job exactly once with two instances on one database', async () => {
    const seen = new Map<number, number>();
    const mk = () => {
      const r = instance({ concurrency: 3 });
      r.register<{ n: number }>('t.once', async (p) => {
        seen.set(p.n, (seen.get(p.n) ?? 0) + 1);
        await new Promise((res) => setTimeout(res, 5));
      });
      return r;
    };
    const [a, b] = [mk(), mk()];
    await Promise.all([a.start(), b.start()]);
    const ids = await Promise.all(Array.from({ length: 40 }, (_, n) => (n % 2 ? a : b).enqueue('t.once', { n })));
    await until(async () => seen.size === 40);
    await a.drain();
    await b.drain();
    expect([...seen.values()].every((c) => c === 1)).toBe(true);
    const res = await t.db.execute(sql`select count(*)::int as n from jobs where id = any(${sql.param(ids)}::bigint[]) and state = 'done'`);
    expect((res.rows[0] as { n: number }).n).toBe(40);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('keeps a job queued while no instance runs, and runs it after a restart', async () => {
    const before = instance();
    before.register('t.restart', async () => {});
    const id = (await before.enqueue('t.restart', { x: 1 }))!;
    expect((await job(id)).state).toBe('queued');
    const after = instance();
    let got: unknown;
    after.register('t.restart', async (p) => {
      got = p;
    });
    await after.start();
    await after.whenSettled(id);
    expect(got).toEqual({ x: 1 });
    expect((await job(id)).state).toBe('done');
    await after.stop();
  });

  it('gives the job of a crashed instance to another once its lease runs out', async () => {
    const r = instance();
    let runs = 0;
    r.register('t.crash', async () => {
      runs++;
    });
    // Claimed by an instance that died a moment ago: running, with a lease already over.
    const res = await t.db.execute(sql`insert into jobs (name, state, attempts, locked_by, locked_until, started_on)
      values ('t.crash', 'running', 1, 'dead-host:1', now() - interval '1 second', now() - interval '1 minute') returning id`);
    const id = Number((res.rows[0] as { id: string }).id);
    // A live lease is not taken.
    const live = await t.db.execute(sql`insert into jobs (name, state, attempts, locked_by, locked_until)
      values ('t.crash', 'running', 1, 'live-host:1', now() + interval '1 hour') returning id`);
    const liveId = Number((live.rows[0] as { id: string }).id);
    await r.start();
    await until(async () => (await job(id)).state === 'done');
    expect(runs).toBe(1);
    expect((await job(id)).attempts).toBe(2);
    expect((await job(liveId)).state).toBe('running');
    await r.stop();
  });

  it('retries with back-off, then fails for good and tells the admins', async () => {
    const r = instance();
    const attempts: number[] = [];
    r.register(
      't.flaky',
      async (_p, ctx) => {
        attempts.push(ctx.attempt);
        if (ctx.attempt < 2) throw new Error('SMTP server away');
      },
      { maxAttempts: 3, backoffSeconds: 0.3 },
    );
    r.register(
      't.broken',
      async () => {
        throw new Error('no photo');
      },
      { maxAttempts: 2, backoffSeconds: 0.2 },
    );
    const failed: number[] = [];
    r.onFinalFailure(async (j) => {
      failed.push(j.id);
    });
    await r.start();
    const flaky = (await r.enqueue('t.flaky'))!;
    await r.whenSettled(flaky);
    const afterFirst = await job(flaky);
    expect(afterFirst).toMatchObject({ state: 'queued', attempts: 1, lastError: 'SMTP server away' });
    // Tried again once its back-off (0.3 s) has passed since the try, by the database's clock.
    expect(new Date(afterFirst.runAt).getTime() - new Date(afterFirst.startedOn!).getTime()).toBeGreaterThanOrEqual(300);
    await until(async () => (await job(flaky)).state === 'done');
    expect(attempts).toEqual([1, 2]);

    const broken = (await r.enqueue('t.broken'))!;
    await until(async () => (await job(broken)).state === 'failed');
    expect(await job(broken)).toMatchObject({ attempts: 2, lastError: 'no photo' });
    expect(failed).toEqual([broken]);
    await r.stop();
  });

  it('a failed job of the app becomes an alert and is listed for admins', async () => {
    t.app.jobs.register(
      't.appFails',
      async () => {
        throw new Error('the portal refused the feed');
      },
      { maxAttempts: 1 },
    );
    const id = (await t.app.jobs.enqueue('t.appFails', { objectId: 5 }))!;
    await until(async () => (await job(id)).state === 'failed');
    const alert = await t.db.execute(sql`select source, kind, entity, entity_id as "entityId", content from alerts where entity = 'Job' and entity_id = ${id}`);
    expect(alert.rows).toHaveLength(1);
    expect(alert.rows[0]).toMatchObject({ source: 'Jobs', kind: 'job' });
    expect(String((alert.rows[0] as { content: string }).content)).toContain('the portal refused the feed');
  });

  it('enqueues inside a transaction: nothing when it rolls back; singletons are queued once', async () => {
    const r = instance();
    await t.db
      .transaction(async (tx) => {
        await r.enqueue('t.tx', {}, { tx });
        throw new Error('rollback');
      })
      .catch(() => {});
    const n = await t.db.execute(sql`select count(*)::int as n from jobs where name = 't.tx'`);
    expect((n.rows[0] as { n: number }).n).toBe(0);
    const first = await r.enqueue('t.single', {}, { singletonKey: 'object:1' });
    const second = await r.enqueue('t.single', {}, { singletonKey: 'object:1' });
    expect(first).toBeTypeOf('number');
    expect(second).toBeNull();
  });

  it('runs a recurring job once per period across instances, however many start, with one next run queued', async () => {
    let runs = 0;
    let active = 0;
    let most = 0;
    const mk = () => {
      const r = instance();
      r.register(
        't.every',
        async () => {
          runs++;
          most = Math.max(most, ++active);
          await new Promise((res) => setTimeout(res, 100));
          active--;
        },
        { everySeconds: 3600 },
      );
      return r;
    };
    const [a, b] = [mk(), mk()];
    await Promise.all([a.start(), b.start()]);
    await until(async () => runs >= 1);
    await a.drain();
    await b.drain();
    expect(runs).toBe(1);
    expect(most).toBe(1);
    const next = await t.db.execute(sql`select count(*)::int as n from jobs where name = 't.every' and state = 'queued' and run_at > now() + interval '50 minutes'`);
    expect((next.rows[0] as { n: number }).n).toBe(1);
    // A third instance started later (a new one in a rolling upgrade, one restarted) does not run it again.
    const c = mk();
    await c.start();
    await c.drain();
    expect(runs).toBe(1);
    const done = await t.db.execute(sql`select count(*)::int as n from jobs where name = 't.every' and state = 'done'`);
    expect((done.rows[0] as { n: number }).n).toBe(1);
    await Promise.all([a.stop(), b.stop(), c.stop()]);
  });
  it('is woken by a job queued in a transaction again once its listening connection was lost (a restarted database)', async () => {
    // Polled once a minute: only the database's notice can start the job within the test.
    const r = instance({ pollMs: 60_000 });
    let ran = 0;
    r.register('t.afterLoss', async () => {
      ran++;
    });
    await r.start();
    const listening = async () =>
      ((await t.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and query = 'listen crm_jobs'`)).rows[0] as { n: number }).n;
    const before = await listening();
    expect(before).toBeGreaterThan(0);
    await t.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query = 'listen crm_jobs'`);
    await until(async () => (await listening()) === 0);
    // Made again (1 s later), and a job queued by another connection's transaction is run at once.
    await until(async () => (await listening()) >= before);
    await t.db.transaction(async (tx) => {
      await r.enqueue('t.afterLoss', {}, { tx });
    });
    await until(async () => ran === 1);
    await r.stop();
  });
});
