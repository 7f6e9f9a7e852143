import { defineConfig } from 'vitest/config';

/** npm run test:cluster's API part (scripts/cluster/test-cluster.ts): the files through a real S3-compatible server. */
export default defineConfig({
  test: {
    include: ['test/cluster/**/*.cluster.ts'],
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 300000,
    hookTimeout: 120000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
