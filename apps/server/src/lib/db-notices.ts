import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { listenConfigOf, type Db } from '../db/client.ts';

type Handler = () => void;

/**
 * News from the database to every instance of the app: a trigger or a statement calls
 * `pg_notify(channel, …)` in its transaction, and PostgreSQL tells every listening connection once
 * the transaction commits (never for one rolled back). One connection of this instance listens to
 * the channels asked for with on(). When it is lost it is made again (1 s, then up to 30 s apart),
 * and every handler is called once then: what it missed meanwhile is not known.
 *
 * A connection that only listens sends nothing, so a database gone without closing it (a host or
 * the network down) would go unnoticed: TCP keep-alive, with Linux's defaults for its probes, gives
 * up only after some 11 minutes. So the connection is asked a `select 1` every `heartbeat.everyMs`;
 * no answer within `heartbeat.timeoutMs` (or an error) ends it, and it is made again as above.
 */
export class DbNotices {
  private readonly handlers = new Map<string, Handler[]>();
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private delayMs = 1000;
  private stopped = false;
  private beat: NodeJS.Timeout | undefined;
  /** How often the listening connection is asked whether it still answers, and how long it may take (lost after 15-20 s). Set before start(). */
  heartbeat = { everyMs: 15_000, timeoutMs: 5_000 };

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
    clearInterval(this.beat);
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
    // A database gone without closing the connection is noticed by the heartbeat (heartbeatOf).
    // TCP keep-alive from 10 s idle stays as a last resort: with Linux's default probes it gives up
    // only after some 11 minutes.
    // A direct connection (DATABASE_DIRECT_URL): a pooler in transaction mode would not keep LISTEN.
    const client = new pg.Client({ ...listenConfigOf(this.db), keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    const lost = (err?: unknown) => {
      if (this.client !== client) return;
      this.client = undefined;
      clearInterval(this.beat);
      // A query left unanswered makes end() close the socket at once, not wait for the peer.
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
      this.beat = this.heartbeatOf(client, lost);
      if (again) this.callAll();
    } catch (err) {
      lost(err);
    }
  }

  /** Asks `client` a `select 1` every heartbeat.everyMs (one at a time); calls `lost` when it fails or takes longer than heartbeat.timeoutMs. */
  private heartbeatOf(client: pg.Client, lost: (err: unknown) => void): NodeJS.Timeout {
    const { everyMs, timeoutMs } = this.heartbeat;
    let asking = false;
    const beat = setInterval(() => {
      if (asking || this.client !== client) return;
      asking = true;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the database did not answer the listening connection's heartbeat within ${timeoutMs} ms`)), timeoutMs);
      });
      Promise.race([client.query('select 1'), late]).then(
        () => {
          clearTimeout(timer);
          asking = false;
        },
        (err: unknown) => {
          clearTimeout(timer);
          lost(err);
        },
      );
    }, everyMs);
    beat.unref();
    return beat;
  }
}
