import type { FastifyInstance } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import type { ImapFlow } from 'imapflow';
import { mailboxes } from '../../db/schema/index.ts';
import { connectImap, openFolder } from './mail-connection.ts';
import { imapSettingsOf, syncMailbox } from './mail-sync.ts';

/** A mailbox's IDLE is held by one instance: a lease in its row, renewed each scan, lapsing when its holder dies. */
const LEASE_SECONDS = 60;
/** How often the leases are taken and renewed, and the watched mailboxes' settings looked at. */
const SCAN_MS = 15_000;
/** IDLE is ended and begun again this often (RFC 2177 asks under 29 minutes; the socket times out at 5). */
const IDLE_RESTART_MS = 4 * 60_000;
/** Reconnects wait 5 s, doubling, at most 5 minutes; a server without IDLE is asked again in an hour. */
const BACKOFF_MS = 5_000;
const BACKOFF_MAX_MS = 5 * 60_000;
const NO_IDLE_MS = 60 * 60_000;
/** A connection that lasted this long counts as good: the next wait starts again at 5 s (one that drops at once does not, or a server closing each session would be reconnected to, and synced, every 5 s). */
const STABLE_MS = 60_000;

class NoIdle extends Error {}

/** A wait that ends early when the signal aborts. */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });

/**
 * One mailbox watched over IMAP IDLE (decision 090): a connection held open on its folder; each
 * EXISTS the server sends runs the mailbox's incremental sync (mail-sync.ts, under its own lease),
 * and so does each (re)connection, for what came while no one watched. A lost connection is made
 * again after a wait that doubles; a server that does not offer IDLE is left to the polling.
 */
class Watcher {
  private readonly abort = new AbortController();
  private client: ImapFlow | undefined;
  private syncing: Promise<void> | undefined;
  private again = false;
  readonly done: Promise<void>;

  constructor(
    private readonly app: FastifyInstance,
    readonly mailboxId: number,
    readonly version: number,
  ) {
    this.done = this.run();
  }

  get idling(): boolean {
    return !!this.client?.idling;
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.client?.close();
    await this.done;
    await this.syncing;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.abort.signal.aborted) {
      let connectedAt = 0;
      try {
        await this.session(() => (connectedAt = Date.now()));
      } catch (e) {
        if (this.abort.signal.aborted) break;
        if (connectedAt && Date.now() - connectedAt >= STABLE_MS) failures = 0;
        const noIdle = e instanceof NoIdle;
        if (!noIdle) failures++;
        const wait = noIdle ? NO_IDLE_MS : Math.min(BACKOFF_MS * 2 ** (failures - 1), BACKOFF_MAX_MS);
        this.app.log.warn({ mailbox: this.mailboxId, err: { message: (e as Error).message }, retryInSeconds: wait / 1000 }, noIdle ? 'mailbox server offers no IDLE; polled only' : 'mailbox IDLE connection lost');
        await pause(wait, this.abort.signal);
      }
    }
  }

  private async session(connected: () => void): Promise<void> {
    const [m] = await this.app.db.select().from(mailboxes).where(eq(mailboxes.id, this.mailboxId));
    if (!m) return void this.abort.abort();
    const client = await connectImap(imapSettingsOf(this.app, m), { maxIdleTime: IDLE_RESTART_MS });
    this.client = client;
    try {
      if (this.abort.signal.aborted) return;
      if (!client.capabilities.has('IDLE')) throw new NoIdle('IDLE not offered');
      await openFolder(client, m.imapFolder);
      const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
      client.on('exists', () => this.kick());
      connected();
      this.kick();
      while (!this.abort.signal.aborted && client.usable) {
        const ended = await Promise.race([client.idle(), closed.then(() => 'closed' as const)]);
        if (ended === 'closed' || ended === false) break;
      }
      if (!this.abort.signal.aborted) throw new Error('connection closed');
    } finally {
      this.client = undefined;
      if (client.usable) await client.logout().catch(() => client.close());
      else client.close();
    }
  }

  /** The mailbox synced now; while one runs, once more after it. A sync another holds is waited for (its search may have missed this mail). */
  private kick() {
    if (this.syncing) {
      this.again = true;
      return;
    }
    this.syncing = (async () => {
      do {
        this.again = false;
        for (let tries = 0; tries < 120 && !this.abort.signal.aborted; tries++) {
          const r = await syncMailbox(this.app, this.mailboxId, this.abort.signal).catch((err: unknown) => {
            this.app.log.warn({ mailbox: this.mailboxId, err }, 'mailbox sync after IDLE failed');
            return undefined;
          });
          if (r !== null) break;
          await pause(1000, this.abort.signal);
        }
      } while (this.again && !this.abort.signal.aborted);
    })().finally(() => (this.syncing = undefined));
  }
}

/**
 * The IDLE watchers of this instance (decision 090). Every scan takes, in one statement, the lease
 * of each active mailbox that no live instance holds, and renews its own: exactly one instance
 * watches a mailbox, another takes it over within a minute of its holder's death. A mailbox changed
 * (its version) is watched anew with its new settings; one made inactive, deleted or taken over is
 * let go. Stopped (SIGTERM, app close), the connections are closed and the leases given back at once.
 */
export class MailIdleWatchers {
  private readonly watchers = new Map<number, Watcher>();
  private timer: NodeJS.Timeout | undefined;
  private scanning: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly app: FastifyInstance,
    private readonly holder: string,
  ) {}

  /** Whether this instance is in IDLE on the mailbox now. */
  idling(mailboxId: number): boolean {
    return !!this.watchers.get(mailboxId)?.idling;
  }

  start() {
    this.timer = setInterval(() => void this.scan(), SCAN_MS);
    this.timer.unref();
    void this.scan();
  }

  async scan(): Promise<void> {
    if (this.stopped || this.scanning) return this.scanning;
    this.scanning = (async () => {
      try {
        const held = (
          await this.app.db.execute(sql`update mailboxes set idle_held_by = ${this.holder}, idle_locked_until = now() + make_interval(secs => ${LEASE_SECONDS})
            where active and (idle_held_by = ${this.holder} or idle_held_by is null or idle_locked_until < now())
            returning id, version`)
        ).rows as { id: number; version: number }[];
        if (this.stopped) return;
        const now = new Map(held.map((r) => [r.id, r.version]));
        for (const [id, w] of this.watchers) {
          if (now.get(id) !== w.version) {
            this.watchers.delete(id);
            await w.stop();
          }
        }
        for (const [id, version] of now) if (!this.watchers.has(id)) this.watchers.set(id, new Watcher(this.app, id, version));
      } catch (err) {
        this.app.log.warn({ err }, 'could not take the mailboxes\' IDLE leases');
      }
    })().finally(() => (this.scanning = undefined));
    return this.scanning;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.scanning;
    const all = [...this.watchers.values()];
    this.watchers.clear();
    await Promise.all(all.map((w) => w.stop()));
    await this.app.db
      .execute(sql`update mailboxes set idle_held_by = null, idle_locked_until = null where idle_held_by = ${this.holder}`)
      .catch((err: unknown) => this.app.log.warn({ err }, 'could not give back the mailboxes\' IDLE leases'));
  }
}

/** One set of watchers per app instance, known by its job runner (the routes' plugin is encapsulated; a test reads it from the app). */
const OF_INSTANCE = new WeakMap<object, MailIdleWatchers>();

export function createMailIdle(app: FastifyInstance): MailIdleWatchers {
  const w = new MailIdleWatchers(app, app.jobs.instanceId);
  OF_INSTANCE.set(app.jobs, w);
  return w;
}

export const mailIdleOf = (app: FastifyInstance): MailIdleWatchers | undefined => OF_INSTANCE.get(app.jobs);
