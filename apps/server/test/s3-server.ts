import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { inject } from 'vitest';
import type { S3Settings } from '../src/config.ts';
import { s3ClientOf } from '../src/storage/s3-storage.ts';

const launcher = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../scripts/cluster/s3-server.mjs');

/**
 * A real S3-compatible server for a test file, and the settings that reach its bucket. In npm test:
 * s3rver (scripts/cluster/s3-server.mjs: signatures checked, objects on disk), in a process of its
 * own on a free port. In npm run test:cluster (vitest.cluster.config.ts) the same tests run against
 * the run's Ceph RADOS Gateway (test/cluster/rgw-setup.ts), where the bucket is made here.
 */
export async function startS3Server(bucket = 'crm-test'): Promise<{ name: string; settings: S3Settings; stop: () => Promise<void> }> {
  const base = { region: 'us-east-1', bucket, forcePathStyle: true, prefix: '', presignSeconds: 0 };
  const shared = inject('s3Server');
  if (shared) {
    // The SDK's own checksums (S3_CHECKSUMS's default), which the gateway takes.
    const settings: S3Settings = { ...base, checksums: 'when_supported', endpoint: shared.endpoint, accessKeyId: shared.accessKeyId, secretAccessKey: shared.secretAccessKey };
    const client = s3ClientOf(settings);
    try {
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
    } catch (e) {
      if ((e as { name?: string }).name !== 'BucketAlreadyOwnedByYou') throw e;
    } finally {
      client.destroy();
    }
    return { name: shared.name, settings, stop: async () => {} };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-s3-'));
  const child = spawn(process.execPath, ['--openssl-legacy-provider', launcher, dir, bucket, '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const endpoint = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /s3 listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`the S3 server stopped (${code}): ${err}`)));
  });
  return {
    name: 's3rver',
    // s3rver does not read the SDK's newer checksum trailers.
    settings: { ...base, checksums: 'when_required', endpoint, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    stop: async () => {
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The app's settings (its environment) for STORAGE=s3 on a bucket of startS3Server, `extra` added or put in their place. */
export function s3Env(settings: S3Settings, extra: Record<string, string> = {}): Record<string, string> {
  return {
    STORAGE: 's3',
    S3_ENDPOINT: settings.endpoint!,
    S3_BUCKET: settings.bucket,
    S3_ACCESS_KEY_ID: settings.accessKeyId!,
    S3_SECRET_ACCESS_KEY: settings.secretAccessKey!,
    S3_FORCE_PATH_STYLE: 'true',
    S3_CHECKSUMS: settings.checksums,
    ...extra,
  };
}
