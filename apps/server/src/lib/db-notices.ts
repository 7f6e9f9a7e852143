import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';

type Handler = () => void;

/**
 * News from the database to every instance of the app: a trigger or a statement calls
 * `pg_notify(channel, …)` in its transaction, and PostgreSQL tells every listening connection once
 * the transaction commits (never for one rolled back). One connection of this instance listens to
 * the channels asked for with on(). When it is lost it is made again (1 s, then up to 30 s apart),
 * and every handler is called once then: what it missed meanwhile is not known.
 */
export class DbNotices {
  private readonly handlers = new Map<string, Handler[]>();
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private delayMs = 1000;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Calls `handler` after each committed notice on `channel` (a plain lower-case name). Before start(). */
  on(channel: string, handler: Handler) {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    this.handlers.set(channel, [...(this.handlers.get(channel) ?? []), handler]);
  }

  async start(): Promise<void> {
    this.stopped = false;
    if (this.handlers.size) await this.connect(false);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const c = this.client;
    this.client = undefined;
    await c?.end().catch(() => {});
  }

  private callAll(channel?: string) {
    for (const [name, list] of this.handlers) {
      if (channel !== undefined && name !== channel) continue;
      for (const h of list) {
        try {
          h();
        } catch (err) {
          this.log.error({ err, channel: name }, 'a database notice handler failed');
        }
      }
    }
  }

  private async connect(again: boolean) {
    const pool = (this.db as unknown as { $client: pg.Pool }).$client;
    // It only listens, so it writes nothing a lost peer would fail: a database gone without closing
    // the connection (a host or network down) is noticed by TCP keep-alive probes, from 10 s idle on.
    const client = new pg.Client({ ...pool.options, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    const lost = (err?: unknown) => {
      if (this.client !== client) return;
      this.client = undefined;
      client.end().catch(() => {});
      if (this.stopped) return;
      this.log.warn({ err }, `database notices lost; listening again in ${this.delayMs / 1000} s`);
      this.retry = setTimeout(() => void this.connect(true), this.delayMs);
      this.retry.unref();
      this.delayMs = Math.min(this.delayMs * 2, 30_000);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (msg) => this.callAll(msg.channel));
    this.client = client;
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`listen ${channel}`);
      if (this.stopped) return void (await this.stop());
      this.delayMs = 1000;
      if (again) this.callAll();
    } catch (err) {
      lost(err);
    }
  }
}
