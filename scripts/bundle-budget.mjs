// Measures the JavaScript each route downloads (gzip) from the Vite manifest and checks the budgets:
// the login route <= 200 KB, every other route chunk <= 150 KB (ARCHITECTURE.md).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../apps/web/dist');
const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const gz = (file) => zlib.gzipSync(fs.readFileSync(path.join(dist, file))).length;

/** A chunk and everything it imports statically. */
function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imp of manifest[key].imports ?? []) closure(imp, seen);
  return seen;
}
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const entry = closure(entryKey);
const kb = (n) => Math.round(n / 102.4) / 10;
const sum = (keys) => [...keys].reduce((s, k) => s + gz(manifest[k].file), 0);

let ok = true;
const rows = [];
const entrySize = sum(entry);
// The sign-in page is in the entry (apps/web/src/app/router.tsx): the entry is the login route.
const loginInEntry = !Object.keys(manifest).some((k) => /login-page/.test(k) && manifest[k].isDynamicEntry);
if (loginInEntry && entrySize > 200 * 1024) ok = false;
rows.push([loginInEntry ? '(entry: shell, providers, login page)' : '(entry: shell, providers)', entrySize, loginInEntry ? 200 * 1024 : null]);
for (const [key, chunk] of Object.entries(manifest)) {
  if (!chunk.isDynamicEntry) continue;
  const own = new Set([...closure(key)].filter((k) => !entry.has(k)));
  const routeSize = sum(own);
  const isLogin = /login-page/.test(key);
  const budget = isLogin ? 200 * 1024 : 150 * 1024;
  const measured = isLogin ? entrySize + routeSize : routeSize;
  if (measured > budget) ok = false;
  rows.push([path.basename(key), measured, budget]);
}
for (const [name, size, budget] of rows) {
  console.log(`${budget && size > budget ? 'OVER' : 'ok  '}  ${name.padEnd(40)} ${String(kb(size)).padStart(7)} KB gzip${budget ? ` (budget ${kb(budget)} KB${/login/.test(name) ? ', with the entry' : ''})` : ''}`);
}
process.exit(ok ? 0 : 1);
