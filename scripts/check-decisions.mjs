// npm test's check that every decision the code and docs cite exists: "decision 057", "decisions
// 070-072", "(071, 072)" and a path docs/decisions/NNN-….md each name a record in docs/decisions.
// A record folded into another leaves its citations pointing nowhere; this finds them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dir = path.join(root, 'docs/decisions');
const records = new Set(fs.readdirSync(dir).map((f) => f.slice(0, 3)).filter((n) => /^\d{3}$/.test(n)));
const files = execFileSync('git', ['ls-files', 'apps', 'packages', 'scripts', 'e2e', 'docs', 'README.md', '.env.example'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && /\.(ts|tsx|mjs|js|md|sql|example|yaml|cfg)$/.test(f) && fs.existsSync(path.join(root, f)));
const missing = [];
for (const f of files) {
  const text = fs.readFileSync(path.join(root, f), 'utf8');
  for (const m of text.matchAll(/[Dd]ecisions? (\d{3}(?:(?:-|–|, | and )\d{3})*)/g)) {
    for (const part of m[1].split(/, | and /)) {
      const [a, b] = part.split(/[-–]/).map(Number);
      for (let n = a; n <= (b ?? a); n++) {
        const id = String(n).padStart(3, '0');
        if (!records.has(id)) missing.push(`${f}: decision ${id}`);
      }
    }
  }
  for (const m of text.matchAll(/docs\/decisions\/(\d{3}-[a-z0-9-]+\.md)/g)) if (!fs.existsSync(path.join(dir, m[1]))) missing.push(`${f}: ${m[0]}`);
}
if (missing.length) {
  console.error(`Cited decisions that do not exist (${missing.length}):\n  ${[...new Set(missing)].join('\n  ')}`);
  process.exit(1);
}
console.log(`Every cited decision exists (${records.size} records)`);
