import http from 'node:http';
import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyCors from '@fastify/cors';
import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { limits } from '../contract/limits';
import type { Config } from './config';
import type { Database } from './db/client';
import {
  answerClientError,
  answerFrameworkError,
  refuseMalformedText,
  registerErrorHandling,
} from './lib/http-errors';
import { InstanceLifecycle } from './lib/lifecycle';
import { createMailer, type Mailer } from './lib/mail';
import { Metrics, serveMetrics } from './lib/metrics';
import { registerRequestContext } from './lib/request-context';
import { answerWithRequestIds, requestIdGenerator } from './lib/request-ids';
import { responseSerializerCompiler } from './lib/response-serializer';
import { refuseForeignOriginsWithCookies, TrustedOrigins } from './lib/same-origin';
import { addSecurityHeaders } from './lib/security-headers';
import { webDistFolder } from './paths';
import { attachRealtime } from './realtime/socket-server';
import { registerRoutes } from './routes';
import { createServices, type Services } from './services';
import { registerWebApp } from './web-app';

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
    /** Serving or stopping, and what the load balancer has seen of it (lib/lifecycle.ts). */
    lifecycle: InstanceLifecycle;
    metrics: Metrics;
    /** Where Prometheus scrapes this instance (METRICS_PORT), or undefined when metrics are off. */
    metricsUrl: string | undefined;
  }
}

export type App = FastifyInstance;

/** How long a client may take to send its request headers before its connection is dropped. */
export const headersTimeoutMs = 10_000;
/**
 * How long a client may take to send its whole request, body included, before it is answered 408 and
 * its connection closed: a body trickling in holds a connection and a parser. 30 s carries the largest
 * request (a 5 MB picture) at about 1.5 Mbit/s.
 */
export const requestTimeoutMs = 30_000;
/** Longer than the idle timeouts of browsers and load balancers (HAProxy keeps idle server connections briefly). */
export const keepAliveTimeoutMs = 65_000;
export type TypedApp = ReturnType<FastifyInstance['withTypeProvider']> & FastifyInstance;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    bodyLimit: 1024 * 1024,
    // Idle keep-alive sockets close at once on shutdown; in-flight requests still finish.
    forceCloseConnections: 'idle',
    // A request arriving on a kept-alive connection while the instance stops is still answered (the
    // database is closed only after), rather than with the framework's own 503 body.
    return503OnClosing: false,
    trustProxy: config.trustProxy,
    genReqId: requestIdGenerator(config.trustProxy),
    logController: new RoutineRequestsAtDebugLevel(),
    // Path parameters up to 1,000 characters reach the routes' own validation; longer ones get a 414.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    serverFactory: (handler) => {
      const server = http.createServer(
        {
          // A connection that sends its headers slowly (or never finishes them) is dropped within ~10 s,
          // one whose body trickles in within ~30 s (Node checks both every second; answerClientError
          // answers). Node refuses a headers timeout longer than the request timeout.
          headersTimeout: Math.min(
            config.headersTimeoutMs ?? headersTimeoutMs,
            config.requestTimeoutMs ?? requestTimeoutMs,
          ),
          requestTimeout: config.requestTimeoutMs ?? requestTimeoutMs,
          connectionsCheckingInterval: 1_000,
        },
        handler,
      );
      // An idle kept-alive connection is closed by the client (a browser, HAProxy's connection pool)
      // before the server does: with both at Node's 5 s, a request sent as the server closes the
      // connection fails (ECONNRESET), which a client cannot tell from a lost request.
      server.keepAliveTimeout = keepAliveTimeoutMs;
      return server;
    },
  }).withTypeProvider<ZodTypeProvider>();
  // Request bodies are JSON (and multipart for uploads): a text/plain body is refused with 415,
  // so a cross-site form cannot post one.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  app.decorate('lifecycle', new InstanceLifecycle());
  closeKeptAliveConnectionsWhenStopping(app);
  const metrics = new Metrics();
  app.decorate('metrics', metrics);
  app.decorate('metricsUrl', undefined);
  if (config.metricsPort !== undefined) {
    metrics.collectProcessMetrics();
    metrics.measureHttp(app);
    metrics.measure({ pool: () => database.poolStats() });
    database.observeQueries((seconds) => metrics.databaseQueryDuration.observe(seconds));
    const served = await serveMetrics(metrics, config.metricsHost, config.metricsPort);
    app.metricsUrl = served.url;
    app.addHook('onClose', () => served.close());
  }
  registerErrorHandling(app);
  answerWithRequestIds(app);
  refuseMalformedText(app);
  await registerRequestContext(app);

  const mailer = options.mailer ?? createMailer({ ...config, from: config.mailFrom, log: app.log });
  const services = await createServices({
    config,
    db: database.db,
    executeSql: database.executeSql,
    metrics,
    mailer,
    log: app.log,
  });
  app.decorate('services', services);
  app.decorate('config', config);

  addSecurityHeaders(app);
  refuseForeignOriginsWithCookies(app, new TrustedOrigins(config));
  // API answers of 1 KB and more, compressed for clients that accept it (the web app's files come
  // pre-compressed instead: registerWebApp). A moderate brotli level: the answers are small and live.
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
  if (config.corsOrigins.length > 0) {
    await app.register(fastifyCors, { origin: config.corsOrigins, credentials: true });
  }
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
  await registerWebApp(app, options.webDist ?? webDistFolder);
  await attachRealtime(app, services, config);
  // Registered after the realtime layer's, so run before it (Fastify runs onClose hooks last first):
  // jobs finishing while the instance stops still publish their events.
  app.addHook('onClose', () => services.close());
  return app;
}

/**
 * Routine requests are logged at debug level only: at info, a log line per request cost more than the
 * request itself on the hot calls, and buried what matters (errors, mail links, start-up).
 */
class RoutineRequestsAtDebugLevel extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, _request: FastifyRequest, reply: FastifyReply) {
    if (error)
      reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/**
 * A stopping instance lets its kept-alive connections go: answers say `Connection: close`, and while it
 * closes, connections that have become idle are closed every quarter second (Node closes only those idle
 * at the moment close() is called; the others would wait for the keep-alive timeout).
 */
function closeKeptAliveConnectionsWhenStopping(app: FastifyInstance) {
  app.addHook('onRequest', (_request, reply, done) => {
    if (app.lifecycle.stopping) reply.header('connection', 'close');
    done();
  });
  app.addHook('preClose', (done) => {
    const sweeper = setInterval(() => app.server.closeIdleConnections(), 250).unref();
    app.server.once('close', () => clearInterval(sweeper));
    done();
  });
}
