import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { ADMIN, E2E_DATA_DIR } from './playwright.config.ts';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

export type FreshOffice = { baseURL: string; dataDir: string; stop: () => Promise<void> };

/**
 * The real server (the suite's launcher) on a fresh folder of its own: an office as a new install
 * starts it, without the demo unless asked, with the settings given (`env`). The suite's own server
 * holds the demo, whose set-up is done; a test that needs another start makes one here.
 */
export async function startFreshOffice(folder: string, env: Record<string, string> = {}): Promise<FreshOffice> {
  const port = await freePort();
  const dataDir = path.join(E2E_DATA_DIR, folder);
  const child: ChildProcess = spawn(process.execPath, [path.join(import.meta.dirname, 'start-server.mjs')], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      PASSWORD_HASH_FAST: 'true',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    // SIGTERM lets the app stop its embedded PostgreSQL cleanly.
    if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
  };
  const baseURL = `http://localhost:${port}`;
  for (let waited = 0; ; waited += 500) {
    if (child.exitCode !== null) throw new Error(`the office's server in ${folder} stopped (exit ${child.exitCode})`);
    if (await fetch(`${baseURL}/api/health`).then((r) => r.ok, () => false)) break;
    if (waited > 240_000) {
      await stop();
      throw new Error(`the office's server in ${folder} did not start`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return { baseURL, dataDir, stop };
}
