// A seeded random stream for the tests that compare a kept answer with the one made on the spot
// after random changes: the seed comes from the named environment variable (or the clock), and each
// failure message names it, so that a failing run can be run again exactly as it was.
import { createRng } from '../src/db/seed/demo-time.ts';

export function seededRandom(envName: string) {
  const SEED = Number(process.env[envName] ?? Date.now() % 100000);
  const rng = createRng(SEED);
  return {
    SEED,
    rand: rng.next,
    pick: rng.pick,
    chance: rng.chance,
    /** A whole number from lo to hi, both included. */
    between: rng.int,
  };
}
