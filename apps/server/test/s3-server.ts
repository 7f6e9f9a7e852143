import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { S3Settings } from '../src/config.ts';

const launcher = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../scripts/cluster/s3-server.mjs');

/**
 * A real S3-compatible server for a test file (scripts/cluster/s3-server.mjs: s3rver, signatures
 * checked, objects on disk), in a process of its own on a free port; the settings that reach it.
 */
export async function startS3Server(bucket = 'crm-test'): Promise<{ settings: S3Settings; stop: () => Promise<void> }> {
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
    settings: { endpoint, region: 'us-east-1', bucket, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true, prefix: '', presignSeconds: 0, checksums: 'when_required' },
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
