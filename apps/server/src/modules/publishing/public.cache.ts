/**
 * The public pages as made, kept a short while in this process: the same list or object page asked
 * again is answered without the database. Emptied whenever the publishing here changes anything;
 * another instance's copy is at most `ttlMs` old (the pages say `max-age=60` to caches anyway).
 */
export class PublicPageCache<T = unknown> {
  private readonly entries = new Map<string, { until: number; value: T }>();

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

  set(key: string, value: T) {
    if (this.ttlMs <= 0) return;
    // The oldest goes first when full (a Map keeps insertion order).
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { until: Date.now() + this.ttlMs, value });
  }

  clear() {
    this.entries.clear();
  }
}
