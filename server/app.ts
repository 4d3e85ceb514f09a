import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyCors from '@fastify/cors';
import fastifyHelmet from '@fastify/helmet';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { errorCodes } from '../contract/errors';
import { limits } from '../contract/limits';
import type { Config } from './config';
import type { Database } from './db/client';
import { registerRoutes } from './features/routes';
import { refuseNulCharacters, registerErrorHandling } from './lib/http-errors';
import { createMailer, type Mailer } from './lib/mail';
import { attachRealtime } from './realtime/socket-server';
import { createServices, type Services } from './services';

export type AppOptions = {
  config: Config;
  database: Database;
  /** Replaces the configured mailer (tests capture mail this way). */
  mailer?: Mailer;
  logger?: FastifyServerOptions['logger'];
  /** Folder of the built web app; defaults to web/dist. */
  webDist?: string;
};

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    config: Config;
  }
}

export type App = FastifyInstance;
export type TypedApp = ReturnType<FastifyInstance['withTypeProvider']> & FastifyInstance;

const defaultWebDist = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'web', 'dist');

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    bodyLimit: 1024 * 1024,
    // Idle keep-alive sockets close at once on shutdown; in-flight requests still finish.
    forceCloseConnections: 'idle',
    trustProxy: config.trustProxy,
    // Long path parameters (a search keyword) reach the route's own validation instead of a bare 414.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  refuseNulCharacters(app);

  const mailer = options.mailer ?? createMailer({ ...config, from: config.mailFrom, log: app.log });
  const services = await createServices({ config, db: database.db, mailer, log: app.log });
  app.decorate('services', services);
  app.decorate('config', config);

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'img-src': ["'self'", 'data:', 'blob:'],
        'style-src': ["'self'", "'unsafe-inline'"],
        'connect-src': ["'self'", 'ws:', 'wss:'],
        'upgrade-insecure-requests': null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  if (config.corsOrigins.length > 0) {
    await app.register(fastifyCors, { origin: config.corsOrigins, credentials: true });
  }
  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, {
    limits: { fileSize: limits.profilePicture.maxBytes, files: 1, parts: 5, fields: 4 },
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Dealmaker API',
        description: 'Deals, bids, escrow, progress, disputes, reviews and messages.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  await app.register(registerRoutes);
  await registerWebApp(app, options.webDist ?? defaultWebDist);
  await attachRealtime(app, services, config);
  return app;
}

/**
 * The built single-page app: assets are immutable, every other non-API path
 * gets index.html so the app's router can show the page (or its 404 page).
 */
async function registerWebApp(app: FastifyInstance, webDist: string) {
  const indexFile = path.join(webDist, 'index.html');
  const hasWebApp = fs.existsSync(indexFile);
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
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
  app.decorateReply('sendWebApp', function sendWebApp() {
    if (!hasWebApp) {
      return this.status(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built yet. Run `npm run build` (npm start does it for you).');
    }
    return this.header('cache-control', 'no-cache').sendFile('index.html', webDist);
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
