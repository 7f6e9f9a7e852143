import fs from 'node:fs';
import path from 'node:path';
import { isCrmProcess } from './process-identity.ts';

export class DataDirLockedError extends Error {}


/**
 * Takes DATA_DIR for this process. A second process on the same directory is refused with a
 * clear message; a lock left by a process that no longer runs, or whose pid now belongs to an
 * unrelated program (pids are reused), is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'crm.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o644);
      fs.writeSync(fd, `${process.pid}\n`);
      fs.closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(fs.readFileSync(file, 'utf8').trim());
      if (pid > 0 && pid !== process.pid && isCrmProcess(pid)) {
        throw new DataDirLockedError(
          `Another CRM process (pid ${pid}) is already running on DATA_DIR ${dataDir}. ` +
            'Stop it first, or give this one its own DATA_DIR and PORT.',
        );
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not take the lock ${file}`);
}
