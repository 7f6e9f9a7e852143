/**
 * Runs at most `concurrency` jobs at once and lets at most `maxQueue` wait; past that a job is
 * refused at once (`null`) rather than queued, so a flood cannot make everyone wait. Priority
 * jobs (a known device signing in) go to the front of the queue.
 */
export class WorkLimiter {
  private running = 0;
  private readonly queue: { start: () => void; priority: boolean }[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxQueue: number,
  ) {}

  get waiting() {
    return this.queue.length;
  }

  /** How many jobs may be running or waiting at once. */
  get capacity() {
    return this.concurrency + this.maxQueue;
  }

  /** The job's result, or null when refused because too many are waiting. */
  async run<T>(job: () => Promise<T>, priority = false): Promise<{ value: T } | null> {
    if (this.running >= this.concurrency) {
      if (this.queue.length >= this.maxQueue && !priority) return null;
      await new Promise<void>((start) => {
        const entry = { start, priority };
        if (priority) {
          const at = this.queue.findIndex((q) => !q.priority);
          this.queue.splice(at < 0 ? this.queue.length : at, 0, entry);
        } else this.queue.push(entry);
      });
    } else this.running++;
    try {
      return { value: await job() };
    } finally {
      const next = this.queue.shift();
      if (next) next.start();
      else this.running--;
    }
  }
}
