// npm start: builds the web app when its sources changed since the last build, then runs the
// server. Any signal that stops this launcher stops the server too (it shuts down cleanly,
// PostgreSQL included), and the server stops by itself should this launcher vanish.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist/index.html');
// The server's build of the app, which draws a screen's first paint (decision 054).
const distSsr = path.join(root, 'apps/web/dist-ssr/entry-server.js');
const sources = ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/vite.ssr.config.ts', 'apps/web/build', 'apps/web/package.json', 'packages/contract/src', 'package-lock.json'];

/** The newest modification time under these paths (files and folders, recursively). */
function newest(paths) {
  let max = 0;
  const visit = (p) => {
    let st;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    max = Math.max(max, st.mtimeMs);
    if (st.isDirectory()) for (const e of fs.readdirSync(p)) visit(path.join(p, e));
  };
  for (const p of paths) visit(path.join(root, p));
  return max;
}

export function webBuildIsCurrent() {
  const built = [dist, distSsr];
  return built.every((f) => fs.existsSync(f)) && Math.min(...built.map((f) => fs.statSync(f).mtimeMs)) >= newest(sources);
}

if (process.env.WEB_DIST || webBuildIsCurrent()) {
  process.stdout.write('The web app is up to date: no build needed.\n');
} else {
  process.stdout.write('Building the web app...\n');
  // The browser's build, then the server's (the same components, for the first paint).
  for (const extra of [[], ['-c', 'vite.ssr.config.ts']]) {
    const r = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', ...extra], { cwd: path.join(root, 'apps/web'), stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}

const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, CRM_LAUNCHER_PID: String(process.pid) },
});
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => server.kill(sig === 'SIGHUP' ? 'SIGTERM' : sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

// `npm start` runs this through a shell; a signal sent to npm alone ends npm but leaves the shell
// and this launcher behind. Watch both (the parent and npm above it): when one is gone, stop.
function parentOf(pid) {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1]);
  } catch {
    return 0;
  }
}
const watched = [process.ppid, parentOf(process.ppid)].filter((pid) => pid > 1);
setInterval(() => {
  for (const pid of watched) {
    try {
      process.kill(pid, 0);
    } catch {
      server.kill('SIGTERM');
      return;
    }
  }
}, 500).unref();
