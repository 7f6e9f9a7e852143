import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { transformWithOxc, type Plugin } from 'vite';
// By path, not by package name: the config loader bundles relative imports but leaves packages to Node, which cannot load .ts.
import { SERVER_PAGE_PREFIXES, SERVER_WRITTEN_SCREENS, isServerPage, isServerWrittenScreen } from '../../../packages/contract/src/constants.ts';

type Lang = 'en' | 'el' | 'ru';
const LANGS: Lang[] = ['en', 'el', 'ru'];
/** Public files worth having offline-ready (the manifest and the icons); the rest (terms.htm) is not. */
const PRECACHED_PUBLIC = /\.(?:webmanifest|png|svg|ico)$/i;
const OFFLINE_SCRIPT = "addEventListener('online',function(){location.reload()})";

function filesUnder(dir: string, base = dir): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p, base) : [path.relative(base, p).split(path.sep).join('/')];
  });
}

/**
 * Writes /sw.js (src/sw/service-worker.ts) after the build, with this build's list of files to
 * precache, a version derived from them, and the offline page's texts in en, el and ru. The service
 * worker cannot reach the texts in the database, so those three come from the shipped locale files.
 */
export function serviceWorker(opts: { source: string; localesDir: string }): Plugin {
  let outDir = 'dist';
  let publicDir = '';
  return {
    name: 'crm-service-worker',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      publicDir = config.publicDir;
    },
    async writeBundle(_options, bundle) {
      const html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
      const entry = /<script type="module"[^>]*src="([^"]+)"/.exec(html)?.[1];
      if (!entry) throw new Error('service worker: no entry script in index.html');
      const built = Object.keys(bundle).filter((f) => f.startsWith('assets/') && !f.endsWith('.map'));
      const fromPublic = filesUnder(publicDir).filter((f) => PRECACHED_PUBLIC.test(f));
      const precache = [...new Set([...built, ...fromPublic])].map((f) => `/${f}`).sort();

      const offline = {} as Record<Lang, { title: string; text: string; retry: string }>;
      for (const lang of LANGS) {
        // The offline page's texts are the app's own (app.<lang>.json: one file per key namespace).
        const texts = JSON.parse(fs.readFileSync(path.join(opts.localesDir, `app.${lang}.json`), 'utf8')) as Record<string, string>;
        const pick = (key: string) => {
          const v = texts[key];
          if (!v) throw new Error(`service worker: app.${lang}.json has no "${key}"`);
          return v;
        };
        offline[lang] = { title: pick('app.offlineTitle'), text: pick('app.offlineText'), retry: pick('app.offlineRetry') };
      }

      const version = createHash('sha256').update(JSON.stringify({ precache, html, offline })).digest('hex').slice(0, 16);
      const config = {
        version,
        shell: '/index.html',
        entry,
        precache,
        offline,
        offlineScript: OFFLINE_SCRIPT,
        offlineScriptHash: `sha256-${createHash('sha256').update(OFFLINE_SCRIPT).digest('base64')}`,
      };
      const source = fs.readFileSync(opts.source, 'utf8');
      const { code } = await transformWithOxc(source, opts.source, { lang: 'ts' });
      // A classic script (every browser registers it): the module marker goes.
      const script = code.replace(/^export\s*\{\s*\};?\s*$/m, '');
      if (/^\s*(import|export)\s/m.test(script)) throw new Error('service worker: the source must not import or export anything');
      // The contract's own tests of a server page and a server-written screen, with the prefixes they close over (the worker imports nothing).
      const serverPage = [
        `const SERVER_PAGE_PREFIXES = ${JSON.stringify(SERVER_PAGE_PREFIXES)};`,
        `const isServerPage = ${isServerPage.toString()};`,
        `const SERVER_WRITTEN_SCREENS = ${JSON.stringify(SERVER_WRITTEN_SCREENS)};`,
        `const isServerWrittenScreen = ${isServerWrittenScreen.toString()};`,
      ].join('\n');
      fs.writeFileSync(path.join(outDir, 'sw.js'), `// Agency CRM service worker, version ${version}\nconst __CRM_SW__ = ${JSON.stringify(config)};\n${serverPage}\n${script}`);
    },
  };
}
