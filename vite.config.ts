import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiPort = Number(process.env.PORT ?? 8080);

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    // bench/bundle/run.mjs reads dist/.vite/manifest.json to size the initial JS and each area chunk.
    manifest: true,
    sourcemap: true,
    // Vite adds <link rel="modulepreload"> for the entry's static imports only; area chunks stay lazy (ROUTE-06).
    modulePreload: { polyfill: false },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false } },
  },
});
