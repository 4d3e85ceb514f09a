import type { IncomingMessage } from 'node:http';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
// The API server the dev server forwards to (`npm start` listens on 3000 by default).
const apiTarget = process.env.API_TARGET ?? 'http://127.0.0.1:3000';

// The links mailed to users point at these /api paths; a browser opening one gets the app's page,
// a fetch asking for JSON gets the API (the server makes the same choice in production).
const pagePaths = /^\/api\/auth\/(register|reset_password)\//;
function servePageForNavigation(req: IncomingMessage) {
  const accept = req.headers.accept ?? '';
  const isNavigation =
    req.method === 'GET' && accept.includes('text/html') && !accept.startsWith('application/json');
  return isNavigation && pagePaths.test(req.url ?? '') ? '/index.html' : undefined;
}

export default defineConfig({
  root,
  plugins: [react(), tailwindcss()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie)[\\/]/ },
            { name: 'vendor', test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, bypass: servePageForNavigation },
      '/uploads': { target: apiTarget },
      '/socket.io': { target: apiTarget, ws: true },
    },
  },
});
