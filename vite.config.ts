import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The renderer: built once, served by the hub at / and loaded by Electron from app://.
export default defineConfig({
  root: 'renderer',
  base: '/',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    // `vite` dev server: API calls go to a hub started with `npm run serve`.
    proxy: { '/v2': 'http://127.0.0.1:4100', '/api': 'http://127.0.0.1:4100', '/oauth2': 'http://127.0.0.1:4100', '/docs': 'http://127.0.0.1:4100' },
  },
});
