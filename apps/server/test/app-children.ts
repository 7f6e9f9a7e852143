import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { TestApp } from './harness.ts';

const server = path.resolve(import.meta.dirname, '..');
let n = 0;

/** A CRM process of test/app-child.ts on the test's database, and what it has said. */
export type AppChild = {
  proc: ChildProcessByStdio<Writable, Readable, null>;
  /** Every line it wrote on standard output so far. */
  lines: string[];
  /** Resolves with the first line (said already or later) that `match` accepts; rejects if the process ends first. */
  said: (match: (line: string) => boolean) => Promise<string>;
  /** Resolves with the signal it ended by (null: it exited). */
  exited: Promise<NodeJS.Signals | null>;
  /** kill -9, then waits until the database has ended every connection it had (a COMMIT sent just before may finish after it is gone). */
  killHard: () => Promise<void>;
  /** kill -9 if still running (the end of a test file), and its end awaited. */
  stop: () => Promise<void>;
  /** Sends a line to its standard input ("go" lets a pause point go on). */
  send: (line: string) => void;
};

export function startChild(t: Pick<TestApp, 'dbUrl' | 'dataDir' | 'db'>, mode: string, args: string[], env: Record<string, string> = {}): AppChild {
  // Its connections are named, so that their end can be waited for.
  const appName = `app-child-${process.pid}-${++n}`;
  const url = `${t.dbUrl}${t.dbUrl.includes('?') ? '&' : '?'}application_name=${appName}`;
  const proc = spawn(process.execPath, ['--import', 'tsx', 'test/app-child.ts', url, t.dataDir, mode, ...args], {
    cwd: server,
    stdio: ['pipe', 'pipe', 'inherit'],
    // NODE_ENV test whatever the runner's: the pause points (lib/pause-point.ts) hold only outside production.
    env: { ...process.env, NODE_ENV: 'test', ...env },
  });
  const lines: string[] = [];
  const waiting: { match: (l: string) => boolean; resolve: (l: string) => void; reject: (e: Error) => void }[] = [];
  let rest = '';
  proc.stdout.on('data', (b: Buffer) => {
    rest += b.toString();
    const parts = rest.split('\n');
    rest = parts.pop()!;
    for (const l of parts) {
      lines.push(l);
      for (const w of [...waiting]) {
        if (!w.match(l)) continue;
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(l);
      }
    }
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    proc.on('exit', (_code, signal) => {
      for (const w of waiting.splice(0)) w.reject(new Error(`the ${mode} process ended (${signal ?? _code}) before saying what was awaited; it said:\n${lines.join('\n')}`));
      resolve(signal);
    }),
  );
  const said = (match: (l: string) => boolean) => {
    const found = lines.find(match);
    if (found !== undefined) return Promise.resolve(found);
    if (proc.exitCode !== null || proc.signalCode !== null) return Promise.reject(new Error(`the ${mode} process has ended`));
    return new Promise<string>((resolve, reject) => waiting.push({ match, resolve, reject }));
  };
  const connections = async () => Number(((await t.db.execute(sql`select count(*)::int as n from pg_stat_activity where application_name = ${appName}`)).rows[0] as { n: number }).n);
  const killHard = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await exited;
    for (let i = 0; (await connections()) > 0; i++) {
      if (i > 600) throw new Error('the killed process’s connections did not end');
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await exited;
  };
  return { proc, lines, said, exited, killHard, stop, send: (l) => proc.stdin.write(`${l}\n`) };
}
