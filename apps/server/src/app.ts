import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import Fastify, { LogController, type FastifyInstance, type FastifyReply } from 'fastify';
import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Db, Tx } from './db/client.ts';
import type { TRole } from '@crm/contract';
import type { users } from './db/schema/index.ts';
import type { Actor } from './lib/audit.ts';
import { authPlugin } from './plugins/auth.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { bodyLimitsPlugin } from './plugins/body-limits.ts';
import { paymentsHostPlugin } from './plugins/payments-host.ts';
import { inlineScriptHashes, webPlugin } from './plugins/web.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { responseSerializer } from './plugins/serializer.ts';
import { TEXTS_CHANNEL, Translator, cultureFromHeader } from './lib/i18n.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { createQueuedMailer } from './mail/queued-mailer.ts';
import { JobRunner, type RunnerOptions } from './jobs/runner.ts';
import { DbNotices } from './lib/db-notices.ts';
import { pruneAttempts } from './lib/throttle.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { shellRoutes, type SearchProvider } from './modules/shell/shell.routes.ts';
import { registerModules } from './modules/index.ts';
import { BEARER_DESCRIPTION, OPENAPI_INTRO, webhookDocs } from './modules/integrations/openapi-texts.ts';
import { shortlistAppPage } from './modules/leads/shortlists.routes.ts';
import { ownerReportAppPage } from './modules/owner-reports/owner-reports.routes.ts';
import { signAppPage } from './modules/signing/signing.routes.ts';
import { idempotencyPlugin, purgeIdempotentRequests } from './plugins/idempotency.ts';
import { purgeWebhookDeliveries } from './modules/integrations/webhook-queue.ts';
import type pg from 'pg';
import { readRoutingPlugin } from './cluster/read-routing.plugin.ts';
import { healthRoutes } from './cluster/health.ts';
import { configureFileStorage, s3Origin } from './storage/file-storage.ts';
import { PENDING_FILES_SWEEP_JOB, sweepPendingFiles } from './storage/pending-files.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    translator: Translator;
    /** The time now, epoch ms (BuildOptions.now). */
    now: () => number;
    /** Queues mail (a job); see mail/queued-mailer.ts. */
    mailer: Mailer;
    /** Background jobs on PostgreSQL (jobs/runner.ts, decision 020): register, enqueue, recurring runs. */
    jobs: JobRunner;
    /** News from the database after a commit, to every instance (lib/db-notices.ts). */
    dbNotices: DbNotices;
    appVersion: string;
    searchProviders: SearchProvider[];
    /** Work still running after its answer went (e.g. a reset mail); awaited when the app closes. */
    pendingWork: Set<Promise<void>>;
    /** Whether this instance takes requests: ready once started, draining after SIGTERM (cluster/health.ts). */
    lifecycle: { ready: boolean; draining: boolean };
    /** Creates a sign-in for an e-mail that has none (employee accounts), or leaves it to the caller. */
    provisionSignIn?: (tx: Tx, email: string, actor: Actor) => Promise<typeof users.$inferSelect | undefined>;
    /** The employee account a new sign-in for this e-mail would be made for (shown before setting a password). */
    findSignInAccount?: (db: Db | Tx, email: string) => Promise<{ id: number; displayName: string; role: TRole; branchId: number | null } | undefined>;
  }
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const WEB_DIST = path.resolve(here, '../../web/dist');
const pkg = JSON.parse(fs.readFileSync(path.resolve(here, '../../../package.json'), 'utf8')) as { version: string };

export type BuildOptions = {
  config: Config;
  db: Db;
  /** The transport the mail jobs use (default: SMTP or the file outbox, from the config). */
  mailer?: Mailer;
  logger?: boolean | object;
  serveWeb?: boolean;
  /** The job runner's settings; false: it is not started (mail is then sent at once). */
  jobs?: RunnerOptions | false;
  /** The time now, epoch ms (default Date.now), for what the app keeps in memory until the agency's date turns; a test moves it. */
  now?: () => number;
  /** The replica's pool (DATABASE_READ_URL): lists, searches, exports and reports read there (decision 061). */
  readPool?: pg.Pool;
};

/** The whole HTTP application; never listens (tests use inject()). */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config, db } = opts;
  const app = Fastify({
    logger: opts.logger ?? false,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    // Only behind a proxy we run: otherwise a client could claim any address in X-Forwarded-For.
    trustProxy: config.trustProxy,
    // One log line per request only when asked for (LOG_LEVEL debug/trace); failures are always logged.
    logController: new LogController({ disableRequestLogging: !['debug', 'trace'].includes(config.logLevel) }),
    bodyLimit: 2 * 1024 * 1024,
    // A path the router cannot even decode (e.g. %ED%A0%80, half a character): problem details too.
    frameworkErrors: (err, req, reply) => {
      const culture = cultureFromHeader(req.headers['accept-language']) ?? 'en';
      const status = typeof err.statusCode === 'number' && err.statusCode < 500 ? err.statusCode : 400;
      const key = status === 404 ? 'errors.noSuchCall' : 'errors.badRequest';
      void (reply as FastifyReply)
        .status(status)
        .type('application/problem+json')
        .send({ status, title: translator.t(culture, key), code: key, detail: translator.t(culture, 'errors.badAddress') });
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializer);

  // The store of stored files (local disk or S3, decision 062), before any module reaches it.
  await configureFileStorage(config.dataDir, config.s3);
  const translator = new Translator();
  await translator.load(db);
  app.decorate('db', db);
  app.decorate('config', config);
  app.decorate('translator', translator);
  app.decorate('now', opts.now ?? Date.now);
  app.decorate('lifecycle', { ready: false, draining: false });
  app.addHook('onReady', async () => {
    app.lifecycle.ready = true;
  });
  // First: every request runs in its read scope (primary or replica), the sign-in's lookup included.
  await app.register(readRoutingPlugin, { readPool: opts.readPool });
  const jobs = new JobRunner(db, app.log, opts.jobs || {});
  app.decorate('jobs', jobs);
  jobs.register('jobs.purge', async () => {
    await jobs.purge();
    await purgeIdempotentRequests(app.db);
    // The throttles' counts (sign-ins, the public site's enquiries) of more than a day ago: the site's terms say so.
    await pruneAttempts(app.db);
    // Webhook deliveries sent or given up over 30 days ago (they copy logged changes; the log stays).
    await purgeWebhookDeliveries(app.db);
  }, { everySeconds: 24 * 3600, maxAttempts: 2 });
  // Stored files whose row never committed (their process died in between): removed after the grace period (decision 104).
  jobs.register(PENDING_FILES_SWEEP_JOB, async () => void (await sweepPendingFiles(app)), { everySeconds: 3600, maxAttempts: 2 });
  const notices = new DbNotices(db, app.log);
  app.decorate('dbNotices', notices);
  // The interface texts changed (an import, on any instance): this one's copy is read again.
  notices.on(TEXTS_CHANNEL, () => void translator.load(db).catch((err: unknown) => app.log.warn({ err }, 'could not reload the interface texts')));
  app.addHook('onReady', async () => notices.start());
  app.addHook('onClose', async () => notices.stop());
  app.decorate('appVersion', pkg.version);
  app.decorate('searchProviders', [] as SearchProvider[]);
  app.decorate('pendingWork', new Set<Promise<void>>());
  const transport = opts.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log: app.log });
  app.decorate('mailer', createQueuedMailer(jobs, transport, app.pendingWork));
  // The runner starts once every module has registered its jobs, and stops (finishing or giving
  // back what runs) when the app closes, after the work of requests in flight.
  if (opts.jobs !== false) app.addHook('onReady', async () => jobs.start());
  app.addHook('onClose', async () => {
    while (app.pendingWork.size) await Promise.all([...app.pendingWork]);
    await jobs.stop();
  });

  const webDist = config.webDist ?? WEB_DIST;
  await app.register(securityHeadersPlugin, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(opts.serveWeb !== false ? inlineScriptHashes(path.join(webDist, 'index.html')) : [])],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...tileHosts(config.map.tileUrl), ...(config.s3?.presignSeconds ? [s3Origin(config.s3)] : [])],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });

  // Before compression, so that the answer it keeps for a retry is the plain one.
  await app.register(idempotencyPlugin);

  // API answers over 1 KB go compressed (brotli at a low, fast quality; gzip otherwise). Static files
  // are compressed once at build time (plugins/web.ts) and opt out. Request bodies are never inflated.
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
    customTypes: /^(?:application\/(?:[\w.+-]+\+)?json|text\/(?!event-stream))/,
    globalDecompression: false,
  });

  const hooks = webhookDocs();
  await app.register(swagger, {
    openapi: {
      ...({ 'x-webhooks': hooks.webhooks } as object), // an extension, which the options' type does not name
      info: { title: 'Agency CRM API', version: pkg.version, description: OPENAPI_INTRO },
      components: { schemas: hooks.schemas as Record<string, object>, securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: BEARER_DESCRIPTION } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  await app.register(errorsPlugin);
  await app.register(paymentsHostPlugin);
  await app.register(authPlugin);
  await app.register(bodyLimitsPlugin);
  await app.register(authRoutes);
  await app.register(shellRoutes);
  await app.register(healthRoutes);
  await registerModules(app);

  if (opts.serveWeb !== false && fs.existsSync(path.join(webDist, 'index.html'))) await webPlugin(app, {
      root: webDist,
      pages: [shortlistAppPage(app), ownerReportAppPage(), signAppPage(app)],
      ...(config.firstPaint ? { firstPaint: { bundle: path.join(webDist, '..', 'dist-ssr', 'entry-server.js') } } : {}),
    });
  return app;
}

/** The origin the map tiles come from, for the CSP's img-src ({s}.tile.example.org: any subdomain). */
export function tileHosts(url: string): string[] {
  try {
    const u = new URL(url.replace(/\{s\}/g, 'a-sub').replace(/\{[a-z]+\}/g, '0'));
    return [`${u.protocol}//${u.host.replace(/^a-sub\./, '*.')}`];
  } catch {
    return [];
  }
}
