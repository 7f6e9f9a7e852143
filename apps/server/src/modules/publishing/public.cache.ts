/** What a page was made from: the cache's state when its data was about to be read (PublicPageCache.mark). */
export type PublicPageMark = { readonly generation: number };

/**
 * The public pages as made, kept a short while in this process: the same list or object page asked
 * again is answered without the database. Emptied whenever something the public sees changes: the
 * database tells every instance of the app (migration 0052: a published object changed, withdrawn or
 * deleted, the site's details; 0053: the place it is in renamed, a tenant linked to it or unlinked),
 * and the publishing here empties it after each run.
 *
 * Emptied too when the agency's date turns (its time zone's midnight): what a page says can change
 * with the date alone, no row changed (a tenancy that ends or starts today, "available from" a date
 * that has come, all read against the agency's today, crm_today()). `ttlMs` is only the bound for an
 * instance that missed the news (its listening connection lost).
 */
export class PublicPageCache<T = unknown> {
  private readonly entries = new Map<string, { until: number; value: T }>();
  /** Raised by every clear(): a page made from what was read before a clear is not kept after it. */
  private generation = 0;
  private readonly ttlMs: number;
  private readonly max: number;
  private readonly now: () => number;
  private readonly dayOf: (ms: number) => string;
  /** The agency's date the pages kept were made on. */
  private day: string;
  /** When this process saw the date turn: pages are not kept for `settleMs` after it (see set()). */
  private turnedAt = Number.NEGATIVE_INFINITY;
  private readonly settleMs: number;

  constructor(
    opts: {
      /** The agency's time zone (its date turns at its midnight). */
      timeZone?: string;
      ttlMs?: number;
      max?: number;
      /** The time now, epoch ms (a test moves it). */
      now?: () => number;
      /** How long after the date turned no page is kept: a database clock a little behind ours still reads the old date then. */
      settleMs?: number;
    } = {},
  ) {
    this.ttlMs = opts.ttlMs ?? 30_000;
    this.max = opts.max ?? 500;
    this.now = opts.now ?? Date.now;
    this.settleMs = opts.settleMs ?? 5_000;
    const format = new Intl.DateTimeFormat('en-CA', { timeZone: opts.timeZone ?? 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' });
    this.dayOf = (ms) => format.format(ms);
    this.day = this.dayOf(this.now());
  }

  /** Empties the cache once the agency's date is not the one its pages were made on; the time now. */
  private check(): number {
    const now = this.now();
    const day = this.dayOf(now);
    if (day !== this.day) {
      this.day = day;
      this.turnedAt = now;
      this.clear();
    }
    return now;
  }

  get(key: string): T | undefined {
    const now = this.check();
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.until < now) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  /** Taken before the database is read for a page: set() keeps the page only if nothing was cleared since. */
  mark(): PublicPageMark {
    this.check();
    return { generation: this.generation };
  }

  /**
   * Keeps a page. `since`: the mark taken before its data was read (always: a page read before a
   * change, or before the date turned, and finished after it would otherwise be kept, stale, for `ttlMs`).
   */
  set(key: string, value: T, since: PublicPageMark) {
    if (this.ttlMs <= 0) return;
    const now = this.check();
    if (since.generation !== this.generation) return;
    if (now - this.turnedAt < this.settleMs) return;
    // The oldest goes first when full (a Map keeps insertion order).
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { until: now + this.ttlMs, value });
  }

  /** The page kept under `key`, else the one `make` makes, kept (as set() keeps it: not if something changed while it was made). */
  async keep<V extends T>(key: string, make: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit as V;
    const since = this.mark();
    const value = await make();
    this.set(key, value, since);
    return value;
  }

  clear() {
    this.generation++;
    this.entries.clear();
  }
}
