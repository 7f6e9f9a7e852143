import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { lockDataDir, DataDirLockedError } from '../src/lib/data-dir-lock.ts';
import { freePort, startEmbeddedPostgres } from '../src/db/embedded.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

/** An unrelated program that happens to hold a pid a stale file names. */
function bystander(args: string[] = []): ChildProcess {
  const c = spawn('sleep', ['120', ...args], { stdio: 'ignore' });
  children.push(c);
  return c;
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

describe('the data folder lock', () => {
  it('takes over a crm.lock whose pid is now an unrelated program, and leaves that program alone', () => {
    const dir = tmp('crm-lock-');
    const other = bystander();
    fs.writeFileSync(path.join(dir, 'crm.lock'), `${other.pid}\n`);
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, 'crm.lock'), 'utf8').trim()).toBe(String(process.pid));
    expect(alive(other.pid!)).toBe(true);
    release();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a folder held by a running CRM process', () => {
    const dir = tmp('crm-lock-');
    const crm = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)', path.join(root, 'apps/server/src/main.ts')], { stdio: 'ignore' });
    children.push(crm);
    fs.writeFileSync(path.join(dir, 'crm.lock'), `${crm.pid}\n`);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    crm.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('the embedded PostgreSQL', () => {
  it('starts as root inside a private folder (mktemp -d), and never signals a program a stale postmaster.pid names', async () => {
    const privateDir = tmp('crm-private-');
    fs.chmodSync(privateDir, 0o700);
    const dir = path.join(privateDir, 'data', 'postgres');
    const first = await startEmbeddedPostgres(dir);
    await first.stop();
    const other = bystander();
    fs.writeFileSync(path.join(dir, 'pgdata', 'postmaster.pid'), `${other.pid}\n${path.join(dir, 'pgdata')}\n`);
    const again = await startEmbeddedPostgres(dir);
    expect(alive(other.pid!)).toBe(true);
    expect(alive(again.pid)).toBe(true);
    await again.stop();
    expect(alive(again.pid)).toBe(false);
    fs.rmSync(privateDir, { recursive: true, force: true });
  }, 90000);
});

/** Returns once `check` holds (asked again every 200 ms, for at most `ms`). */
const waitFor = (check: () => Promise<boolean> | boolean, ms: number) =>
  vi.waitFor(
    async () => {
      if (!(await check())) throw new Error('not yet');
    },
    { timeout: ms, interval: 200 },
  );
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => {
      s.end();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });

describe('npm start', () => {
  // SIGTERM, SIGHUP or even SIGKILL to npm alone (a service manager, a closed terminal, kill),
  // and Ctrl+C (SIGINT to the whole foreground group).
  const cases = [
    { signal: 'SIGTERM', group: false },
    { signal: 'SIGHUP', group: false },
    { signal: 'SIGKILL', group: false },
    { signal: 'SIGINT', group: true },
  ] as const;
  for (const { signal, group } of cases) {
    it(`stops the server and its database when ${group ? 'the terminal sends' : 'npm gets'} ${signal}`, async () => {
      const dataDir = tmp('crm-start-');
      const webDist = tmp('crm-web-');
      const port = await freePort();
      const npm = spawn('npm', ['start'], {
        cwd: root,
        detached: group,
        stdio: 'ignore',
        env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, WEB_DIST: webDist, DEMO_DATA: 'false', ADMIN_PASSWORD: 'harbour lemon tree 7', LOG_LEVEL: 'warn', NODE_ENV: 'production' },
      });
      children.push(npm);
      await waitFor(() => listening(port), 60000);
      const pidFile = path.join(dataDir, 'postgres', 'pgdata', 'postmaster.pid');
      const pgPid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
      expect(alive(pgPid)).toBe(true);
      if (group) process.kill(-npm.pid!, signal);
      else npm.kill(signal);
      // Stopped cleanly: nothing listens, the database is down and the lock is given back.
      await waitFor(async () => !(await listening(port)) && !alive(pgPid) && !fs.existsSync(path.join(dataDir, 'crm.lock')), 30000);
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(webDist, { recursive: true, force: true });
    }, 90000);
  }
});
