import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's shared S3-compatible server (vitest.cluster.config.ts: Ceph's RADOS Gateway); startS3Server uses it when provided. */
    s3Server?: { name: string; endpoint: string; accessKeyId: string; secretAccessKey: string };
  }
}

const launcher = path.resolve(import.meta.dirname, '../../../../scripts/cluster/rgw-server.mjs');
let child: ChildProcess | undefined;
let dir: string | undefined;

/**
 * Ceph's RADOS Gateway (scripts/cluster/rgw-server.mjs) on a free port and a temporary folder, once
 * for the cluster run (some twenty seconds to start): every S3 test file of the run uses it, each
 * with buckets of its own (decision 108).
 */
export async function setup(project: TestProject) {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-rgw-'));
  const c = spawn(process.execPath, [launcher, dir, 'crm-files', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child = c;
  let err = '';
  c.stderr!.on('data', (b: Buffer) => (err += b.toString()));
  const endpoint = await new Promise<string>((resolve, reject) => {
    let out = '';
    c.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /s3 listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    c.on('exit', (code) => reject(new Error(`the RADOS Gateway stopped (${code}): ${err}`)));
    // A Ceph that never comes up fails the run rather than holding it (and CI) for ever.
    setTimeout(() => reject(new Error(`the RADOS Gateway did not start within 180 s: ${err}`)), 180_000).unref();
  }).catch(async (e: unknown) => {
    await teardown();
    throw e;
  });
  project.provide('s3Server', { name: 'radosgw', endpoint, accessKeyId: 'CRMRGWKEY', secretAccessKey: 'CRMRGWSECRET' });
}

export async function teardown() {
  if (child && child.exitCode === null) {
    const gone = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await gone;
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}
