import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { mantineCssPerComponent } from './build/mantine-css.ts';
import { precompress } from './build/precompress.ts';
import { firstPaintCss } from './build/first-paint-css.ts';
import { mantinePatches } from './build/mantine-patches.ts';
import { serviceWorker } from './build/service-worker.ts';
import { shellPreload } from './build/shell-preload.ts';
import { bootLoading } from './build/boot-loading.ts';
import { themeVariables } from './build/theme-variables.ts';

export default defineConfig({
  plugins: [
    react(),
    themeVariables(),
    mantinePatches(),
    mantineCssPerComponent(),
    shellPreload(),
    bootLoading(path.resolve(import.meta.dirname, '../server/src/db/seed/locales')),
    firstPaintCss(),
    serviceWorker({ source: path.resolve(import.meta.dirname, 'src/sw/service-worker.ts'), localesDir: path.resolve(import.meta.dirname, '../server/src/db/seed/locales') }),
    // Last: compresses everything written, sw.js included.
    precompress(),
  ],
  server: { proxy: { '/api': 'http://localhost:3000' } },
  build: {
    outDir: 'dist',
    manifest: true,
    emptyOutDir: true,
    chunkSizeWarningLimit: 600,
    // Few files a screen, not a hundred: the automatic split made a chunk (and a stylesheet) of
    // every set of screens sharing a module, and the account view fetched 95 files, each a request
    // and a <link> the loader adds on the main thread. Now the entry holds everything the first
    // screen needs (sign-in included), one shared chunk holds the components and libraries six or
    // more screens use, and each screen's chunk holds the rest (decision 011).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'boot', tags: ['$initial'], priority: 2 },
            { name: 'ui', test: /node_modules|src[\\/](components|lib)[\\/]/, minShareCount: 6, priority: 1 },
          ],
        },
      },
    },
  },
});
