import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { viteWebPlatform } from './scripts/platformVariants.mjs';

// The renderer: built once, served by the hub at / and loaded by Electron from app://.
export default defineConfig({
  root: 'renderer',
  base: '/',
  plugins: [
    react(),
    // The service worker (renderer/sw.ts) with the build's file list (Workbox precaching); it is
    // registered by the page only where the browser keeps the rep's data (never in Electron).
    VitePWA({
      strategies: 'injectManifest',
      srcDir: '.',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,wasm,webmanifest}'],
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
        // A classic script, as it is registered (workbox-window, no `type: 'module'`), in one piece.
        rollupFormat: 'iife',
      },
    }),
  ],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // One bundle of everything went past Vite's 500 kB warning. React and React DOM change
        // least, so they get a chunk of their own, and so does libphonenumber-js (mostly its metadata);
        // recharts stays in the Reports chunk, which App.tsx already loads lazily. All chunks are
        // same-origin scripts, so the hub's `script-src 'self'` allows them.
        codeSplitting: {
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'phone-numbers', test: /[\\/]node_modules[\\/]libphonenumber-js[\\/]/ },
          ],
        },
      },
    },
  },
  // The engine worker (electron/browser/engineWorker.ts): the engine's platform/<name>.ts swapped for
  // its .web.ts side; SQLite's WebAssembly is found by sqlite-wasm through import.meta.url and emitted beside it.
  worker: { format: 'es', plugins: () => [viteWebPlatform()] },
  optimizeDeps: { exclude: ['@sqlite.org/sqlite-wasm'] },
  server: {
    // `vite` dev server: API calls go to a hub started with `npm run serve`.
    proxy: { '/v2': 'http://127.0.0.1:4100', '/api': 'http://127.0.0.1:4100', '/oauth2': 'http://127.0.0.1:4100', '/docs': 'http://127.0.0.1:4100' },
  },
});
