import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(?:js|mjs|css|html?|svg|json|webmanifest|txt|xml|map)$/i;
const MIN_BYTES = 1024;

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name.startsWith('.')) return [];
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : [p];
  });
}

/**
 * Writes `file.br` (brotli, best quality) and `file.gz` (gzip, level 9) next to every text file of
 * the build over 1 KB, so the server sends them as they are instead of compressing per request.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'crm-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // After everything is written, the public folder's copies included.
    async closeBundle() {
      // A build that failed before writing anything (its own error is the one to see).
      if (!fs.existsSync(outDir)) return;
      const files = filesUnder(outDir).filter((f) => COMPRESSIBLE.test(f) && fs.statSync(f).size >= MIN_BYTES);
      await Promise.all(
        files.map(async (file) => {
          const data = await fs.promises.readFile(file);
          const [br, gz] = await Promise.all([
            new Promise<Buffer>((resolve, reject) =>
              zlib.brotliCompress(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }, (e, r) => (e ? reject(e) : resolve(r))),
            ),
            new Promise<Buffer>((resolve, reject) => zlib.gzip(data, { level: 9 }, (e, r) => (e ? reject(e) : resolve(r)))),
          ]);
          // A compressed copy that saves nothing is left out; the server then sends the file itself.
          if (br.length < data.length) await fs.promises.writeFile(`${file}.br`, br);
          if (gz.length < data.length) await fs.promises.writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}
