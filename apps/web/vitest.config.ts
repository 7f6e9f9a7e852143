import { defineConfig } from 'vitest/config';

/** Unit tests of the web app's pure functions (no browser, no server): `npm test -w @crm/web`. */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
