import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30000,
    hookTimeout: 120000,
    pool: 'forks',
    fileParallelism: true,
    // Test files share their worker's modules: each file still gets a database of its own, and
    // importing the app afresh for every one of 65 files was half of the suite's time (3 s a file).
    // A module-level cache must therefore be keyed by what it caches for (a database handle).
    isolate: false,
    maxWorkers: 2,
  },
});
