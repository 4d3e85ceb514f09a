import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestServer, type TestServer } from './test/harness';

// What the server sends over the wire: compressed text answers, pre-compressed web app files, and the
// cache headers of the built assets.

let server: TestServer;
let webDist: string;
const script = `export const answer = ${JSON.stringify('x'.repeat(3000))};\n`;

beforeAll(async () => {
  webDist = await mkdtemp(path.join(os.tmpdir(), 'dealmaker-web-'));
  await mkdir(path.join(webDist, 'assets'));
  const html = `<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
  await writeFile(path.join(webDist, 'index.html'), html);
  await writeFile(path.join(webDist, 'index.html.gz'), zlib.gzipSync(html));
  await writeFile(path.join(webDist, 'assets', 'app-abc123.js'), script);
  await writeFile(path.join(webDist, 'assets', 'app-abc123.js.br'), zlib.brotliCompressSync(script));
  await writeFile(path.join(webDist, 'assets', 'app-abc123.js.gz'), zlib.gzipSync(script));
  // Vite's build manifest: the entry, the Deals page's chunk and one it shares with the entry.
  await mkdir(path.join(webDist, '.vite'));
  await writeFile(
    path.join(webDist, '.vite', 'manifest.json'),
    JSON.stringify({
      'main.tsx': { file: 'assets/app-abc123.js', isEntry: true, imports: ['_react.js'] },
      '_react.js': { file: 'assets/react-r1.js' },
      'app/pages/deals-page.tsx': { file: 'assets/deals-page-d1.js', imports: ['_react.js', '_deals.js'] },
      '_deals.js': { file: 'assets/deals-d2.js', css: ['assets/deals.css'] },
      'app/pages/deal-detail-page.tsx': { file: 'assets/deal-detail-page-d3.js', imports: ['_deals.js'] },
    }),
  );
  server = await startTestServer({ webDist });
});
afterAll(async () => {
  await server.close();
  await rm(webDist, { recursive: true, force: true });
});

const inject = (url: string, headers: Record<string, string> = {}) =>
  server.app.inject({ method: 'GET', url, headers });

describe('compressed API answers', () => {
  it('sends JSON of 1 KB or more as brotli or gzip, as the client accepts', async () => {
    const plain = await inject('/api/docs/json');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await inject('/api/docs/json', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.payload);

    const gzip = await inject('/api/docs/json', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(plain.payload);
  });

  it('leaves small answers, refused encodings and identity alone', async () => {
    const user = await signUp(server);
    const small = await inject('/api/wallet', {
      'accept-encoding': 'br',
      authorization: `Bearer ${user.token}`,
    });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.payload)).toEqual({ balance: 0, totalDeposited: 0, totalWithdrawn: 0 });

    for (const accepted of ['identity', 'br;q=0, gzip;q=0', 'deflate']) {
      const answer = await inject('/api/docs/json', { 'accept-encoding': accepted });
      expect(answer.headers['content-encoding'], accepted).toBeUndefined();
    }
    const gzipOnly = await inject('/api/docs/json', { 'accept-encoding': 'br;q=0, gzip' });
    expect(gzipOnly.headers['content-encoding']).toBe('gzip');
  });
});

describe('the web app files', () => {
  it('serves hashed assets immutable, pre-compressed when the browser accepts it', async () => {
    const plain = await inject('/assets/app-abc123.js');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.payload).toBe(script);

    const br = await inject('/assets/app-abc123.js', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gzip = await inject('/assets/app-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(script);
  });

  it('answers every page with index.html, never cached, compressed when it can be', async () => {
    const page = await inject('/deals/42', { accept: 'text/html', 'accept-encoding': 'gzip' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(page.rawPayload).toString()).toContain('<div id="root"></div>');
  });
});

describe('a page’s code named in index.html', () => {
  const signedIn = { accept: 'text/html', cookie: 'theme=dark; auth_token=some.signed.token' };
  const preloads = (html: string) =>
    [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((match) => match[1]);

  it('names the Deals page’s and a deal page’s own files to a signed-in browser', async () => {
    const deals = await inject('/deals?q=plant', signedIn);
    expect(deals.statusCode).toBe(200);
    expect(deals.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(deals.headers['cache-control']).toBe('no-cache');
    expect(deals.headers.vary).toContain('cookie');
    expect(preloads(deals.payload)).toEqual(['/assets/deals-page-d1.js', '/assets/deals-d2.js']);
    expect(deals.payload).toContain('<div id="root"></div>');

    const deal = await inject('/deals/42', signedIn);
    expect(preloads(deal.payload)).toEqual(['/assets/deal-detail-page-d3.js', '/assets/deals-d2.js']);
  });

  it('names nothing to a signed-out browser, nor on other pages', async () => {
    for (const [url, headers] of [
      ['/deals', { accept: 'text/html' }],
      ['/deals', { accept: 'text/html', cookie: 'auth_token=' }],
      ['/', signedIn],
      ['/deposit', signedIn],
      ['/deals/42/more', signedIn],
    ] as const) {
      const page = await inject(url, headers);
      expect(page.statusCode, url).toBe(200);
      expect(page.payload, url).toContain('<div id="root"></div>');
      expect(preloads(page.payload), `${url} ${JSON.stringify(headers)}`).toEqual([]);
    }
  });
});

describe('stopping with kept-alive connections', () => {
  it('closes them as they go idle instead of waiting for their keep-alive timeout', async () => {
    const own = await startTestServer();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        http
          .get(`${own.url}/api/health`, { agent }, (response) => {
            response.resume();
            response.on('end', () =>
              resolve({ status: response.statusCode ?? 0, connection: response.headers.connection }),
            );
          })
          .on('error', reject);
      });
    try {
      expect(await get()).toEqual({ status: 200, connection: 'keep-alive' });
      own.app.lifecycle.beginStopping();
      // Answers of a stopping instance let the connection go.
      expect(await get()).toEqual({ status: 200, connection: 'close' });
      expect(await get()).toEqual({ status: 200, connection: 'close' });
      const started = Date.now();
      await own.app.close();
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      agent.destroy();
      await own.close().catch(() => undefined);
    }
  });
});
