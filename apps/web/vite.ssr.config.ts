import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { mantinePatches } from './build/mantine-patches.ts';

/**
 * The server's first paint of a screen (src/entry-server.tsx, decision 054): the same components,
 * built for Node into dist-ssr/. Everything is bundled (the app's own TypeScript packages and the
 * libraries whose deep imports Node's ESM cannot resolve); the styles are the browser build's.
 */
export default defineConfig({
  plugins: [react(), mantinePatches()],
  publicDir: false,
  ssr: { noExternal: true, target: 'node' },
  // React's production build, chosen here: bundled whole, React picks its build by process.env.NODE_ENV
  // when it runs, and the server does not set it, so every drawing ran React's development build
  // (its checks and warnings): 2-3x the CPU a page (issue 50).
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    ssr: 'src/entry-server.tsx',
    outDir: 'dist-ssr',
    emptyOutDir: true,
    minify: false,
    rolldownOptions: { output: { codeSplitting: false } },
  },
});
