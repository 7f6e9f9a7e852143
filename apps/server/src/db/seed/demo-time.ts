/** Seeded pseudo-random numbers (mulberry32): the same demo on every fresh database. */
export type Rng = {
  next: () => number;
  int: (min: number, max: number) => number;
  pick: <T>(items: readonly T[]) => T;
  chance: (p: number) => boolean;
  digits: (n: number) => string;
  /** Picks by weight: [[value, weight], ...]. */
  weighted: <T>(items: readonly (readonly [T, number])[]) => T;
};

export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
    digits: (n) => Array.from({ length: n }, () => String(int(0, 9))).join(''),
    weighted: (items) => {
      const total = items.reduce((s, [, w]) => s + w, 0);
      let r = next() * total;
      for (const [v, w] of items) {
        r -= w;
        if (r < 0) return v;
      }
      return items[items.length - 1]![0];
    },
  };
}

/** A small linear congruential random (the leads' and the stays' demo): the same numbers on every machine. */
export function lcgRandom(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

type Parts = { y: number; m: number; d: number; h: number; mi: number };

function partsIn(date: Date, timeZone: string): Parts {
  const f = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const p = Object.fromEntries(f.formatToParts(date).map((x) => [x.type, x.value]));
  return { y: Number(p.year), m: Number(p.month), d: Number(p.day), h: Number(p.hour), mi: Number(p.minute) };
}

/**
 * Wall-clock times in the agency's time zone relative to today: `at(-3, 10, 30)` is three days
 * ago at 10:30 in Thessaloniki, whatever the server's own zone.
 */
export function createClock(now: Date, timeZone: string) {
  const today = partsIn(now, timeZone);
  const at = (dayOffset: number, hour: number, minute: number): Date => {
    const guess = Date.UTC(today.y, today.m - 1, today.d + dayOffset, hour, minute);
    const seen = partsIn(new Date(guess), timeZone);
    const offset = Date.UTC(seen.y, seen.m - 1, seen.d, seen.h, seen.mi) - guess;
    return new Date(guess - offset);
  };
  /** A working-hours moment `dayOffset` days from today, never later than now. */
  const past = (dayOffset: number, hour: number, minute: number): Date => {
    const d = at(dayOffset, hour, minute);
    return d.getTime() > now.getTime() ? new Date(now.getTime() - (hour * 7 + minute) * 60000) : d;
  };
  const dateOnly = (d: Date): string => {
    const p = partsIn(d, timeZone);
    return `${p.y}-${String(p.m).padStart(2, '0')}-${String(p.d).padStart(2, '0')}`;
  };
  return { now, at, past, dateOnly };
}
export type Clock = ReturnType<typeof createClock>;
