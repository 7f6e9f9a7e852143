/**
 * The public pages as made, kept a short while in this process: the same list or object page asked
 * again is answered without the database. Emptied whenever something the public sees changes: the
 * database tells every instance of the app (migration 0052: a published object changed, withdrawn or
 * deleted, the site's details; 0053: the place it is in renamed, a tenant linked to it or unlinked),
 * and the publishing here empties it after each run. `ttlMs` is only
 * the bound for an instance that missed the news (its listening connection lost).
 */
export class PublicPageCache<T = unknown> {
  private readonly entries = new Map<string, { until: number; value: T }>();
  /** Raised by every clear(): a page made from what was read before a clear is not kept after it. */
  private generation = 0;

  constructor(
    private readonly ttlMs = 30_000,
    private readonly max = 500,
  ) {}

  get(key: string): T | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.until < Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  /** Taken before the database is read for a page: set() keeps the page only if nothing was cleared since. */
  mark(): number {
    return this.generation;
  }

  /**
   * Keeps a page. `since`: the mark taken before its data was read (always: a page read before a
   * change and finished after the change emptied the cache would otherwise be kept, stale, for `ttlMs`).
   */
  set(key: string, value: T, since: number) {
    if (this.ttlMs <= 0) return;
    if (since !== this.generation) return;
    // The oldest goes first when full (a Map keeps insertion order).
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { until: Date.now() + this.ttlMs, value });
  }

  clear() {
    this.generation++;
    this.entries.clear();
  }
}
