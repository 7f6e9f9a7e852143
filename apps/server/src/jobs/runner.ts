import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../db/client.ts';
import { DbNotices } from '../lib/db-notices.ts';

/** What a handler is given besides its payload. */
export type JobContext = {
  id: number;
  name: string;
  /** 1 on the first run, 2 on the first retry... */
  attempt: number;
  maxAttempts: number;
  /** Aborted when the app stops while the job runs; a handler that honours it stops early. */
  signal: AbortSignal;
  log: FastifyBaseLogger;
};
/** A job's failure with a reason a screen can translate (kept in jobs.last_error_reason beside the message). */
export class JobFailure extends Error {
  constructor(
    message: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export type JobHandler<P = Record<string, unknown>> = (payload: P, ctx: JobContext) => Promise<void>;

export type JobDefinition = {
  /** Runs in all (first run included); then the job is failed and admins are told. Default 5. */
  maxAttempts?: number;
  /** The wait before the first retry; each further retry waits twice as long (capped at an hour). Default 30. */
  backoffSeconds?: number;
  /** Repeats every so many seconds (one queued run across all instances), the first run at the first start. */
  everySeconds?: number;
};

export type EnqueueOptions = {
  /** While a job of this name and key is queued, another is not added (the call answers null). */
  singletonKey?: string;
  runAt?: Date;
  maxAttempts?: number;
  /** Enqueue inside this transaction: the job exists (and wakes the runners) only if it commits. */
  tx?: Tx | Db;
};

export type JobRow = {
  id: number;
  name: string;
  payload: Record<string, unknown>;
  state: 'queued' | 'running' | 'done' | 'failed';
  singletonKey: string | null;
  attempts: number;
  maxAttempts: number;
  runAt: Date;
  lastError: string | null;
};

export type RunnerOptions = {
  /** How often queued jobs whose time has come are looked for (NOTIFY wakes the runner at once for new ones). */
  pollMs?: number;
  /** A claimed job is another instance's to take once this long passes without a renewal. */
  leaseSeconds?: number;
  /** Jobs run at once by this instance. */
  concurrency?: number;
  /** How long stop() waits for running jobs before giving them back to the queue. */
  stopTimeoutMs?: number;
};

const CHANNEL = 'crm_jobs';
const MAX_BACKOFF_SECONDS = 3600;
/** The singleton key of a recurring job's next run. */
export const EVERY_KEY = '@every';

/** The wait before retry number `attempt` (1-based: the wait after the first failed run). */
export function backoffSeconds(base: number, attempt: number): number {
  return Math.min(base * 2 ** Math.max(0, attempt - 1), MAX_BACKOFF_SECONDS);
}

type Registered = { handler: JobHandler; def: Required<Omit<JobDefinition, 'everySeconds'>> & { everySeconds?: number } };
/** `reason`: the failure's code that the office's screens explain (JobFailure's), or null. */
type FinalFailure = (job: JobRow, error: string, tx: Tx, reason: string | null) => Promise<void>;

/**
 * A durable job queue on PostgreSQL (decision 020). Several app instances on one database each
 * run one of these: a job is claimed by exactly one of them (SELECT ... FOR UPDATE SKIP LOCKED),
 * held by a lease renewed while it runs, retried with exponential back-off, and given to another
 * instance when its lease runs out (the holder crashed). New jobs wake the runners through
 * LISTEN/NOTIFY (lib/db-notices.ts: the listening connection is made again when lost, and the runner
 * looks for work then); a poll picks up delayed ones.
 */
export class JobRunner {
  readonly instanceId = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly handlers = new Map<string, Registered>();
  private readonly failureHooks: FinalFailure[] = [];
  private readonly running = new Map<number, { promise: Promise<void>; abort: AbortController }>();
  private readonly waiters = new Map<number, (() => void)[]>();
  private readonly opts: Required<RunnerOptions>;
  /** New jobs queued by any connection, once committed. */
  private readonly notices: DbNotices;
  private pollTimer: NodeJS.Timeout | undefined;
  private leaseTimer: NodeJS.Timeout | undefined;
  private started = false;
  private stopping = false;
  private ticking = false;
  private again = false;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    opts: RunnerOptions = {},
  ) {
    this.opts = { pollMs: 2000, leaseSeconds: 60, concurrency: 4, stopTimeoutMs: 20000, ...opts };
    this.notices = new DbNotices(db, log);
    this.notices.on(CHANNEL, () => this.kick());
  }

  /** The names of the jobs this instance knows (each has its text jobs.name.{name}). */
  names(): string[] {
    return [...this.handlers.keys()];
  }

  /** Names the work a job of this name does. Register before start(); an instance claims only jobs it knows. */
  register<P = Record<string, unknown>>(name: string, handler: JobHandler<P>, def: JobDefinition = {}) {
    this.handlers.set(name, {
      handler: handler as JobHandler,
      def: { maxAttempts: def.maxAttempts ?? 5, backoffSeconds: def.backoffSeconds ?? 30, everySeconds: def.everySeconds },
    });
    if (this.started && def.everySeconds) void this.scheduleRecurring(name).catch((err: unknown) => this.log.error({ err, job: name }, 'could not schedule a recurring job'));
  }

  /** Called (in the transaction that fails the job) when a job has used up its attempts. */
  onFinalFailure(hook: FinalFailure) {
    this.failureHooks.push(hook);
  }

  get isStarted() {
    return this.started && !this.stopping;
  }

  /**
   * Adds a job. Answers its id, or null when a job of this name and singletonKey is already
   * queued. Without a registered handler somewhere, a job waits in the queue.
   */
  async enqueue(name: string, payload: Record<string, unknown> = {}, o: EnqueueOptions = {}): Promise<number | null> {
    const db = o.tx ?? this.db;
    const maxAttempts = o.maxAttempts ?? this.handlers.get(name)?.def.maxAttempts ?? 5;
    const res = await db.execute(sql`
      with added as (
        insert into jobs (name, payload, singleton_key, run_at, max_attempts)
        values (${name}, ${JSON.stringify(payload)}::jsonb, ${o.singletonKey ?? null}, coalesce(${o.runAt?.toISOString() ?? null}::timestamptz, now()), ${maxAttempts})
        on conflict (name, singleton_key) where singleton_key is not null and state = 'queued' do nothing
        returning id
      )
      select id, pg_notify(${CHANNEL}, ${name}) from added`);
    const id = (res.rows[0] as { id: number | string } | undefined)?.id;
    if (id === undefined) return null;
    if (!o.tx) this.kick();
    return Number(id);
  }

  /**
   * An administrator's retry: a failed job goes back to the queue now, with a fresh set of attempts
   * (its last error is kept until it runs). 'notFailed' when there is no failed job with that id;
   * 'duplicate' when the same job (name and singleton key) is queued already, as a recurring
   * check's next run is.
   */
  async retry(id: number, tx?: Tx | Db): Promise<'queued' | 'notFailed' | 'duplicate'> {
    const db = tx ?? this.db;
    const res = await db.execute(sql`
      with target as (select id, name, singleton_key from jobs where id = ${id} and state = 'failed' for update),
      again as (
        update jobs j set state = 'queued', attempts = 0, run_at = now(), finished_on = null, started_on = null, locked_by = null, locked_until = null
        from target t
        where j.id = t.id and (t.singleton_key is null
          or not exists (select 1 from jobs q where q.name = t.name and q.singleton_key = t.singleton_key and q.state = 'queued'))
        returning j.id, j.name
      )
      select (select count(*)::int from target) as found, (select count(*)::int from again) as queued,
        (select pg_notify(${CHANNEL}, name) from again limit 1) as notified`);
    const r = res.rows[0] as { found: number; queued: number };
    if (!r.found) return 'notFailed';
    if (!r.queued) return 'duplicate';
    if (!tx) this.kick();
    return 'queued';
  }

  /**
   * Resolves once this instance has finished a run of the job (or given up on it), when the runner
   * stops, or after timeoutMs — whichever comes first. For callers that want to see the outcome
   * soon (tests, the mail of a request); it never throws.
   */
  whenSettled(id: number, timeoutMs = 15000): Promise<void> {
    return new Promise<void>((resolve) => {
      if (!this.isStarted) return resolve();
      const timer = setTimeout(done, timeoutMs);
      timer.unref();
      const list = this.waiters.get(id) ?? [];
      list.push(done);
      this.waiters.set(id, list);
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
  }

  /** Resolves once no job this instance knows is queued for now or running (a test helper; at most timeoutMs). */
  async drain(timeoutMs = 15000): Promise<void> {
    const until = Date.now() + timeoutMs;
    const names = [...this.handlers.keys()];
    while (Date.now() < until) {
      const res = await this.db.execute(
        sql`select count(*)::int as n from jobs where name = any(${sql.param(names)}::text[]) and ((state = 'queued' and run_at <= now()) or state = 'running')`,
      );
      if ((res.rows[0] as { n: number }).n === 0 && this.running.size === 0) return;
      this.kick();
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    // Not listening (the database unreachable, the connection lost): polled only, until it is made again.
    await this.notices.start();
    for (const [name, r] of this.handlers) if (r.def.everySeconds) await this.scheduleRecurring(name);
    this.pollTimer = setInterval(() => this.kick(), this.opts.pollMs);
    this.pollTimer.unref();
    this.leaseTimer = setInterval(() => void this.renewLeases(), (this.opts.leaseSeconds * 1000) / 3);
    this.leaseTimer.unref();
    this.kick();
  }

  /** Stops claiming, waits for running jobs (aborting them after stopTimeoutMs), gives back what is unfinished. */
  async stop(): Promise<void> {
    if (!this.started || this.stopping) return;
    this.stopping = true;
    clearInterval(this.pollTimer);
    await this.notices.stop();
    const all = [...this.running.values()];
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      Promise.all(all.map((r) => r.promise)).then(() => false),
      new Promise<boolean>((r) => {
        timer = setTimeout(() => r(true), this.opts.stopTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      for (const r of all) r.abort.abort();
      // Unfinished runs go back to the queue for this or another instance; the run does not count.
      await this.db
        .execute(sql`update jobs set state = 'queued', attempts = greatest(attempts - 1, 0), locked_by = null, locked_until = null, run_at = now()
          where state = 'running' and locked_by = ${this.instanceId}`)
        .catch((err: unknown) => this.log.error({ err }, 'could not give back unfinished jobs'));
    }
    clearInterval(this.leaseTimer);
    for (const list of this.waiters.values()) for (const w of list) w();
    this.waiters.clear();
  }

  /** Looks for work now (coalesced: one look at a time, one more if asked meanwhile). */
  kick() {
    if (!this.isStarted) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    void this.tick()
      .catch((err: unknown) => this.log.error({ err }, 'job poll failed'))
      .finally(() => {
        this.ticking = false;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async tick() {
    const free = this.opts.concurrency - this.running.size;
    if (free <= 0 || !this.isStarted) return;
    const names = [...this.handlers.keys()];
    if (!names.length) return;
    const res = await this.db.execute(sql`
      update jobs set state = 'running', attempts = attempts + 1, locked_by = ${this.instanceId},
        locked_until = now() + make_interval(secs => ${this.opts.leaseSeconds}), started_on = now()
      where id in (
        select id from jobs j
        where name = any(${sql.param(names)}::text[])
          and ((state = 'queued' and run_at <= now()) or (state = 'running' and locked_until < now()))
          -- A recurring job's next run waits while its previous run is alive on any instance (two
          -- instances starting together may each have queued a run at start).
          and not (j.singleton_key = ${EVERY_KEY} and exists (
            select 1 from jobs r where r.name = j.name and r.singleton_key = ${EVERY_KEY} and r.id <> j.id and r.state = 'running' and r.locked_until >= now()))
        order by run_at, id
        for update skip locked
        limit ${free}
      )
      returning id, name, payload, state, singleton_key as "singletonKey", attempts, max_attempts as "maxAttempts", run_at as "runAt", last_error as "lastError"`);
    const claimed = res.rows as JobRow[];
    for (const job of claimed) {
      job.id = Number(job.id);
      const abort = new AbortController();
      const promise = this.run(job, abort.signal).finally(() => {
        this.running.delete(job.id);
        const list = this.waiters.get(job.id);
        this.waiters.delete(job.id);
        for (const w of list ?? []) w();
        this.kick();
      });
      this.running.set(job.id, { promise, abort });
    }
    // A full batch: there may be more waiting.
    if (claimed.length === free) this.again = true;
  }

  private async run(job: JobRow, signal: AbortSignal) {
    const reg = this.handlers.get(job.name)!;
    const log = this.log.child({ job: job.name, jobId: job.id, attempt: job.attempts });
    // Claimed again after its holder stopped answering, with no attempt left.
    if (job.attempts > job.maxAttempts) {
      await this.finish(job, reg, 'The job stopped responding (its instance stopped or crashed) and has no attempt left.');
      return;
    }
    try {
      await reg.handler(job.payload, { id: job.id, name: job.name, attempt: job.attempts, maxAttempts: job.maxAttempts, signal, log });
    } catch (err) {
      const message = err instanceof Error ? err.message || err.name : String(err);
      log.warn({ err }, 'job failed');
      await this.finish(job, reg, message, err instanceof JobFailure ? err.reason : null);
      return;
    }
    await this.finish(job, reg, null);
  }

  /** Records the outcome of a run; a retry is queued with back-off; the last failure calls the hooks. */
  private async finish(job: JobRow, reg: Registered, error: string | null, reason: string | null = null) {
    try {
      await this.db.transaction(async (tx) => {
        const mine = sql`id = ${job.id} and state = 'running' and locked_by = ${this.instanceId}`;
        if (error === null) {
          const r = await tx.execute(sql`update jobs set state = 'done', finished_on = now(), locked_by = null, locked_until = null, last_error = null, last_error_reason = null where ${mine} returning id`);
          if (!r.rows.length) return; // the lease was lost and the job is someone else's now
        } else if (job.attempts < job.maxAttempts) {
          const wait = backoffSeconds(reg.def.backoffSeconds, job.attempts);
          await tx.execute(sql`update jobs set state = 'queued', run_at = now() + make_interval(secs => ${wait}), locked_by = null, locked_until = null,
            last_error = ${error.slice(0, 4000)}, last_error_reason = ${reason} where ${mine}`);
          return;
        } else {
          const r = await tx.execute(sql`update jobs set state = 'failed', finished_on = now(), locked_by = null, locked_until = null,
            last_error = ${error.slice(0, 4000)}, last_error_reason = ${reason} where ${mine} returning id`);
          if (!r.rows.length) return;
          this.log.error({ job: job.name, jobId: job.id, error }, 'job failed for good');
          for (const hook of this.failureHooks) await hook(job, error, tx, reason);
        }
        if (job.singletonKey === EVERY_KEY && reg.def.everySeconds) await this.insertNextRun(tx, job.name, reg.def.everySeconds, reg.def.maxAttempts);
      });
    } catch (err) {
      this.log.error({ err, job: job.name, jobId: job.id }, 'could not record the outcome of a job');
    }
  }

  private async insertNextRun(tx: Tx | Db, name: string, everySeconds: number, maxAttempts: number) {
    await tx.execute(sql`insert into jobs (name, singleton_key, run_at, max_attempts)
      values (${name}, ${EVERY_KEY}, now() + make_interval(secs => ${everySeconds}), ${maxAttempts})
      on conflict (name, singleton_key) where singleton_key is not null and state = 'queued' do nothing`);
  }

  /**
   * A recurring job runs on the first start (no run of it queued or running yet) and then every so
   * often: once per period across all instances, however many start, stop or restart meanwhile
   * (decision 020). A queued run further off than one period (the period was shortened by an
   * upgrade) is brought forward to one period from now.
   */
  private async scheduleRecurring(name: string) {
    const every = this.handlers.get(name)?.def.everySeconds ?? 0;
    const maxAttempts = this.handlers.get(name)?.def.maxAttempts ?? 5;
    // Instances starting together do this one after the other (the lock), each seeing what the one
    // before made: a run of it is always queued or running once the first was made (a run finishing
    // queues the next in the same transaction), so a run is added only when there is none.
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`crm-every:${name}`}))`);
      await tx.execute(sql`update jobs set run_at = now() + make_interval(secs => ${every})
        where name = ${name} and singleton_key = ${EVERY_KEY} and state = 'queued' and run_at > now() + make_interval(secs => ${every})`);
      await tx.execute(sql`insert into jobs (name, singleton_key, run_at, max_attempts)
        select ${name}, ${EVERY_KEY}, coalesce((select max(finished_on) from jobs where name = ${name} and singleton_key = ${EVERY_KEY}) + make_interval(secs => ${every}), now()), ${maxAttempts}
        where not exists (select 1 from jobs where name = ${name} and singleton_key = ${EVERY_KEY} and state in ('queued', 'running'))
        on conflict (name, singleton_key) where singleton_key is not null and state = 'queued' do nothing`);
    });
  }

  private async renewLeases() {
    const ids = [...this.running.keys()];
    if (!ids.length) return;
    await this.db
      .execute(sql`update jobs set locked_until = now() + make_interval(secs => ${this.opts.leaseSeconds})
        where id = any(${sql.param(ids)}::bigint[]) and state = 'running' and locked_by = ${this.instanceId}`)
      .catch((err: unknown) => this.log.warn({ err }, 'could not renew job leases'));
  }

  /** Deletes finished jobs: done ones after a week, failed ones after 30 days. */
  async purge() {
    await this.db.execute(sql`delete from jobs where (state = 'done' and finished_on < now() - interval '7 days') or (state = 'failed' and finished_on < now() - interval '30 days')`);
  }
}
