import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { mantineCssPerComponent } from './build/mantine-css.ts';
import { precompress } from './build/precompress.ts';
import { serviceWorker } from './build/service-worker.ts';

export default defineConfig({
  plugins: [
    react(),
    mantineCssPerComponent(),
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
  },
});
