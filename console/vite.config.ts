import { defineConfig } from 'vite';

// The console is built into dist/ and served by the query API at /console (console/src/index.ts says
// where). One origin, no CDN: every asset is a file of dist/.
export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // The polyfill would be an inline script, which the console's Content-Security-Policy forbids; every
    // browser the console supports preloads modules itself.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});
