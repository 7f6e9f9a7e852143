// npm test's check that no import circle exists anywhere (apps/*/src, packages/*/src; tests aside):
// a circle makes a module's meaning depend on the order its files load, and hides which one is the
// lower layer. Prints each circle and exits 1 when there is one. The web's boundaries between
// features are ESLint's (scripts/lint/boundaries.js).
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const isTest = (f) => /\.(test|spec)\.[tj]sx?$|\.testing\.[tj]sx?$/.test(f);
function walk(dir, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'dist', 'dist-ssr', 'drizzle'].includes(e.name)) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (/\.(ts|tsx|mts|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts') && !isTest(p)) out.push(p);
  }
  return out;
}
const files = ['apps/server/src', 'apps/web/src', 'packages/contract/src'].flatMap((d) => walk(path.join(root, d)));
const known = new Set(files);
const importRe = /(?:^|\n)\s*(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
function resolve(from, spec) {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec);
  for (const c of [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) if (known.has(c)) return c;
  return null;
}
const graph = new Map(files.map((f) => [f, [...fs.readFileSync(f, 'utf8').matchAll(importRe)].map((m) => resolve(f, m[1] || m[2] || m[3])).filter(Boolean)]));
// Tarjan's strongly connected components: every component of more than one file is a circle.
let index = 0;
const stack = [];
const on = new Set();
const idx = new Map();
const low = new Map();
const circles = [];
function visit(v) {
  idx.set(v, index);
  low.set(v, index++);
  stack.push(v);
  on.add(v);
  for (const w of graph.get(v)) {
    if (!idx.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const c = [];
    let w;
    do {
      w = stack.pop();
      on.delete(w);
      c.push(path.relative(root, w));
    } while (w !== v);
    if (c.length > 1 || graph.get(v).includes(v)) circles.push(c);
  }
}
for (const v of graph.keys()) if (!idx.has(v)) visit(v);
if (circles.length) {
  console.log(`${circles.length} import circle(s):`);
  for (const c of circles) console.log(`  ${c.join(' <-> ')}`);
  process.exit(1);
}
console.log(`no import circles (${files.length} files)`);
