import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** The command line of a running process ('' when it cannot be read, null when it is not running). */
export function commandLine(pid: number): string | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return null;
  }
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    try {
      return execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    } catch {
      return '';
    }
  }
}

/** Whether pid is a running CRM server (node running the server's main module). */
export function isCrmProcess(pid: number): boolean {
  const cmd = commandLine(pid);
  return !!cmd && /node/.test(cmd) && /(apps\/server\/src\/main\.ts|server\/dist\/main\.js|main\.ts)\b/.test(cmd);
}

/** Whether pid is a PostgreSQL server running on this data directory. */
export function isPostgresOf(pid: number, pgdata: string): boolean {
  const cmd = commandLine(pid);
  return !!cmd && /postgres/.test(cmd) && cmd.includes(pgdata);
}
