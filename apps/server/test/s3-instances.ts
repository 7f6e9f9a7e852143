import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { connectDb } from '../src/db/client.ts';
import { createTestApp } from './harness.ts';
import { s3Env, startS3Server } from './s3-server.ts';

/**
 * Two instances of the app with STORAGE=s3 on one database and one bucket of a real S3-compatible
 * server (test/s3-server.ts: s3rver in npm test, Ceph's RADOS Gateway in npm run test:cluster), each with a DATA_DIR of its own: `t`, the test file's app, and
 * `other`, a second machine. `env` is the settings both start with (the S3 ones and `extra`); all
 * is stopped and removed after the file's tests.
 */
export async function startS3Instances(bucket: string, extra: Record<string, string>) {
  const s3 = await startS3Server(bucket);
  const env = s3Env(s3.settings, extra);
  const t = await createTestApp(env);
  const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-other-instance-'));
  const handle = connectDb(t.dbUrl, 3, { timeZone: t.config.timeZone });
  const other = await buildApp({ config: loadConfig({ NODE_ENV: 'test', DATA_DIR: otherDir, PASSWORD_HASH_FAST: 'true', LOG_LEVEL: 'silent', ...env }), db: handle.db, serveWeb: false, jobs: false });
  await other.ready();
  afterAll(async () => {
    await other.close();
    await handle.close();
    await s3.stop();
    fs.rmSync(otherDir, { recursive: true, force: true });
  });
  return { s3, env, t, other, otherDir };
}
