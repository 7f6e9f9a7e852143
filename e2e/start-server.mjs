// Starts the real server for the suite on a fresh data directory (the web app is built first by npm test).
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// A database server left running by an interrupted earlier run: stop it before wiping its folder.
const pidFile = path.join(process.env.DATA_DIR, 'postgres', 'pgdata', 'postmaster.pid');
if (fs.existsSync(pidFile)) {
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
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
