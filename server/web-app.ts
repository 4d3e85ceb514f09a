import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorCodes } from '../contract/errors';
import { extractToken } from './lib/credentials';

/**
 * The signed-in pages whose code a browser is told to fetch with the app's own (web/app/router.tsx
 * loads every page but the landing page when it is first visited): the pages people open most, by
 * their address. Without the hint a phone asks for a page's code only once the app's code has arrived
 * and run, a round trip later on a slow network (the Lighthouse budgets, e2e/lighthouse.spec.ts).
 */
const preloadedPages = [
  { address: /^\/deals\/?$/, page: 'app/pages/deals-page.tsx' },
  { address: /^\/deals\/[^/]+\/?$/, page: 'app/pages/deal-detail-page.tsx' },
];

type ManifestChunk = { file: string; imports?: string[]; isEntry?: boolean };

/** Each file of `keys` and what they import statically, transitively (Vite's build manifest). */
function staticImports(manifest: Record<string, ManifestChunk>, keys: string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const stack = [...keys];
  while (stack.length > 0) {
    const key = stack.pop()!;
    const chunk = manifest[key];
    if (seen.has(key) || !chunk) continue;
    seen.add(key);
    files.add(chunk.file);
    stack.push(...(chunk.imports ?? []));
  }
  return files;
}

/**
 * index.html as sent for each preloaded page: the page's own files (those the entry does not already
 * load) as `<link rel="modulepreload">` in its head. Null without a build manifest (nothing to name).
 */
export function preloadingPages(webDist: string): Array<{ address: RegExp; html: string }> | null {
  const manifestFile = path.join(webDist, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestFile)) return null;
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entry) return null;
  const index = fs.readFileSync(path.join(webDist, 'index.html'), 'utf8');
  const loadedByEntry = staticImports(manifest, [entry]);
  return preloadedPages.flatMap(({ address, page }) => {
    if (!manifest[page]) return [];
    const links = [...staticImports(manifest, [page])]
      .filter((file) => file.endsWith('.js') && !loadedByEntry.has(file))
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`);
    return [{ address, html: index.replace('</head>', `    ${links.join('\n    ')}\n  </head>`) }];
  });
}

/**
 * The built single-page app: hashed assets are immutable, every other non-API path gets index.html so
 * the app's router can show the page (or its 404 page). The build writes a .br and a .gz beside each
 * text file; browsers that accept them get those. A signed-in browser opening one of `preloadedPages`
 * gets index.html with that page's code named in it (a little over 1 KB, sent as it is).
 */
export async function registerWebApp(app: FastifyInstance, webDist: string) {
  const indexFile = path.join(webDist, 'index.html');
  const hasWebApp = fs.existsSync(indexFile);
  const pages = hasWebApp ? preloadingPages(webDist) : null;
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders(res, filePath) {
        res.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  }

  /** The page's index.html with its preloads, when it has some and the browser is signed in. */
  const preloadingPage = (request: FastifyRequest) => {
    if (!pages || !extractToken(undefined, request.headers.cookie)) return undefined;
    const address = request.url.split('?')[0] ?? '';
    return pages.find((page) => page.address.test(address))?.html;
  };

  app.decorateReply('sendWebApp', function sendWebApp() {
    if (!hasWebApp) {
      return this.status(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built yet. Run `npm run build` (npm start does it for you).');
    }
    this.header('cache-control', 'no-cache');
    const html = preloadingPage(this.request);
    // Whether it names a page's code depends on the sign-in cookie.
    if (pages) this.header('vary', 'cookie');
    if (html) return this.type('text/html; charset=utf-8').send(html);
    return this.sendFile('index.html', webDist);
  });

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    if (url.startsWith('/api') || url.startsWith('/uploads') || url.startsWith('/socket.io')) {
      return reply.status(404).send({ message: 'Not found.', code: errorCodes.notFound });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.status(404).send({ message: 'Not found.', code: errorCodes.notFound });
    }
    return reply.sendWebApp();
  });
}

declare module 'fastify' {
  interface FastifyReply {
    sendWebApp(): FastifyReply;
  }
}
