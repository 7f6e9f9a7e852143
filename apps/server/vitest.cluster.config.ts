import { defineConfig } from 'vitest/config';

/**
 * npm run test:cluster's API part (scripts/cluster/test-cluster.ts): the files through a real
 * S3-compatible server operators run, Ceph's RADOS Gateway (test/cluster/rgw-setup.ts, one for the
 * run). npm test runs the same store tests against s3rver (decision 108).
 */
export default defineConfig({
  test: {
    include: [
      'test/cluster/**/*.cluster.ts',
      'src/storage/s3-storage.test.ts',
      'src/storage/s3-files.test.ts',
      'src/storage/storage-copy.test.ts',
    ],
    globalSetup: ['./test/global-setup.ts', './test/cluster/rgw-setup.ts'],
    testTimeout: 300000,
    hookTimeout: 120000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
