// Starts the real server for the suite on a fresh data directory (the web app is built first by npm test).
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// A database server left running by an interrupted earlier run: stop it before wiping its folder.
// Only a PostgreSQL on this very folder is signalled: a reused pid may be any other program.
const pgdata = path.join(process.env.DATA_DIR, 'postgres', 'pgdata');
const pidFile = path.join(pgdata, 'postmaster.pid');
const ours = (pid) => {
  try {
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
    return cmd.includes('postgres') && cmd.includes(pgdata);
  } catch {
    return false;
  }
};
if (fs.existsSync(pidFile)) {
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (pid > 0 && ours(pid)) try {
    process.kill(pid, 'SIGQUIT');
    for (let i = 0; i < 50; i++) {
      process.kill(pid, 0);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch {
    /* gone */
  }
}
fs.rmSync(process.env.DATA_DIR, { recursive: true, force: true });
const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], { stdio: 'inherit', cwd: root, env: process.env });
const stop = (sig) => child.kill(sig);
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
child.on('exit', (code) => process.exit(code ?? 0));
