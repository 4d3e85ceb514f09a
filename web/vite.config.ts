import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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

/**
 * Writes a .br and a .gz beside every text file of the build (at the highest levels: done once, at build
 * time), which the server sends to browsers that accept them (@fastify/static preCompressed).
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'dealmaker-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const files = fs.readdirSync(outDir, { recursive: true, encoding: 'utf8' });
      for (const file of files.filter((name) => /\.(js|css|html|svg|json|txt)$/.test(name))) {
        const full = path.join(outDir, file);
        const content = fs.readFileSync(full);
        if (content.length < 1024) continue;
        fs.writeFileSync(`${full}.gz`, zlib.gzipSync(content, { level: 9 }));
        fs.writeFileSync(
          `${full}.br`,
          zlib.brotliCompressSync(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

export default defineConfig({
  root,
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: 'dist',
    // Read by scripts/bundle-size.mjs: which chunks each page needs.
    manifest: true,
    emptyOutDir: true,
    rolldownOptions: {
      // The shared contract builds zod schemas at module level; the web app uses only its plain helpers
      // (money, limits), so schema calls it never reads must not pull zod into the page.
      // The app's own modules have no effect on import but their exports: a feature's entry re-exports all
      // its parts, and a chunk importing one of them (the deal page's route, the deal's query) must not
      // carry the others.
      treeshake: {
        manualPureFunctions: ['z'],
        moduleSideEffects: [{ test: /[\\/](web|contract)[\\/].*\.tsx?$/, sideEffects: false }],
      },
      output: {
        // Libraries change less often than the app: their chunks stay cached across releases. Grouped by
        // who needs them, so a page downloads only its own (Socket.IO only once signed in, zod only
        // with the pages that use the contract's schemas).
        codeSplitting: {
          groups: [
            // React's renderer apart from React and its router: two files of about half the size come down
            // side by side, each on a connection of its own, sooner than one (a new connection starts slow).
            { name: 'react-dom', test: /node_modules[\\/](react-dom|scheduler)[\\/]/ },
            { name: 'react', test: /node_modules[\\/](react|react-router|cookie)[\\/]/ },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/ },
            {
              name: 'socket',
              test: /node_modules[\\/](socket\.io-client|socket\.io-parser|engine\.io-[a-z]+|@socket\.io)[\\/]/,
            },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
            // Toasts: after an action or a live event, never with a page's first paint.
            { name: 'toasts', test: /node_modules[\\/]sonner[\\/]/ },
            // Passkeys: loaded when one is used (sign-in, step-up, My Profile), never with the landing page.
            { name: 'webauthn', test: /node_modules[\\/]@simplewebauthn[\\/]/ },
            { name: 'vendor', test: /node_modules[\\/]/ },
            // The entry's own code and what lazy chunks share with it, in one chunk: every file is a request,
            // and on HTTP/1.1 a browser asks a server for six at a time, each a round trip on a slow network.
            { name: 'app', tags: ['$initial'], test: /[\\/](web|contract)[\\/]/ },
            // The shared components and helpers the lazy chunks use, in one chunk for the same reason; the
            // dialogs, the socket, passkeys and money helpers apart: they bring their libraries (money the
            // contract's, with zod), which a page may not need for its first paint.
            {
              name: 'ui',
              test: /[\\/]web[\\/](components[\\/](?!ui[\\/](dialog|confirm-dialog-box|query-dialog)\.)|lib[\\/](?!socket|passkeys|money))/,
            },
            {
              name: 'dialogs',
              test: /[\\/]web[\\/]components[\\/]ui[\\/](dialog|confirm-dialog-box|query-dialog)\./,
            },
            // A feature's modules that several pages share, in one chunk per feature.
            {
              name: (id) => /[\\/]web[\\/]features[\\/]([^\\/]+)[\\/]/.exec(id)?.[1],
              test: /[\\/]web[\\/]features[\\/]/,
              minShareCount: 2,
            },
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
