import fs from 'node:fs';
import readline from 'node:readline';

let paused = false;

/**
 * A named point where a process can be held still, so that the tests which kill a real process
 * there (kill -9) find it exactly there (decision 104). Only when `CRM_PAUSE_AT` names this point:
 * the process writes `paused <name>` on its standard output and waits until it reads a line `go`
 * on its standard input, once per process. With `CRM_PAUSE_ONCE` naming a file, only the process
 * that makes that file first stops (several processes share the point). Unset, as everywhere
 * outside those tests: nothing happens. Never in production (NODE_ENV=production): a setting left
 * over there cannot hold a live process.
 */
export async function pausePoint(name: string): Promise<void> {
  if (paused || process.env.NODE_ENV === 'production' || process.env.CRM_PAUSE_AT !== name) return;
  paused = true;
  const once = process.env.CRM_PAUSE_ONCE;
  if (once) {
    try {
      fs.writeFileSync(once, String(process.pid), { flag: 'wx' });
    } catch {
      return;
    }
  }
  await new Promise<void>((resolve) => {
    const lines = readline.createInterface({ input: process.stdin });
    lines.on('line', (l) => {
      if (l.trim() !== 'go') return;
      lines.close();
      resolve();
    });
    process.stdout.write(`paused ${name}\n`);
  });
}
