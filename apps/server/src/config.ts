import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { passwordProblem } from './lib/password-policy.ts';

/** An address, a network (address/bits) or one of proxy-addr's names, as TRUST_PROXY lists them. */
function isProxyAddress(x: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(x)) return true;
  const [addr, bits, more] = x.split('/');
  const kind = isIP(addr ?? '');
  if (!kind || more !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (kind === 4 ? 32 : 128);
}

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Every setting of the server, from the environment, parsed once. */
const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, 'must be an http:// or https:// address without query, e.g. https://crm.example.com')
    .optional(),
  ADMIN_EMAIL: z.string().email().default('admin@example.com'),
  ADMIN_PASSWORD: z
    .string()
    .refine((p) => passwordProblem(p) === null, 'is too short, too common or easy to guess: choose a longer, unusual password')
    .optional(),
  TIME_ZONE: z
    .string()
    .default('Europe/Athens')
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'is not a known time zone'),
  SESSION_HOURS: z.coerce.number().int().min(1).max(24 * 365).default(12 * 24),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Agency CRM <crm@localhost>'),
  /** The key the mailboxes' passwords are encrypted with (AES-256-GCM): 32 bytes as 64 hex digits or base64 (decision 078). */
  MAIL_SECRET_KEY: z
    .string()
    .refine((k) => /^[0-9a-fA-F]{64}$/.test(k) || Buffer.from(k, 'base64').length === 32, 'must be 32 bytes: 64 hex digits or 44 base64 characters (openssl rand -base64 32)')
    .optional(),
  /**
   * myDATA's REST API (decision 085): SendInvoices is posted to this base address. The default is
   * AADE's test environment; production is https://mydatapi.aade.gr/myDATA (or a provider's).
   */
  MYDATA_URL: z.string().regex(/^https?:\/\/[^\s]+$/, 'must be an http(s) address').default('https://mydataapidev.aade.gr'),
  /** The wait before the first retry of a transmission myDATA did not answer (doubled each time). */
  MYDATA_RETRY_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEMO_DATA: bool.default(true),
  UPLOAD_MAX_MB: z.coerce.number().int().min(1).max(2048).default(50),
  /** All files of one upload request together. */
  UPLOAD_REQUEST_MAX_MB: z.coerce.number().int().min(1).max(4096).default(200),
  UPLOAD_MAX_FILES: z.coerce.number().int().min(1).max(500).default(30),
  /** Uploaded but not yet attached to a record, per user: what one person can park on the disk. */
  UPLOAD_PENDING_MAX_MB: z.coerce.number().int().min(1).max(100000).default(500),
  /** Uploads never attached to a record are removed after this many hours. */
  UPLOAD_UNATTACHED_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(2),
  /** The map tiles: an http(s) address with {z}, {x} and {y} (and optionally {s}, a subdomain a, b or c). */
  MAP_TILE_URL: z
    .string()
    .regex(/^https?:\/\/[^\s/?#]+\/\S*$/, 'must be an http:// or https:// address')
    .refine((u) => ['{z}', '{x}', '{y}'].every((p) => u.includes(p)), 'must contain {z}, {x} and {y}, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png')
    .default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  /** Who must be credited for the tiles (plain text), and where the credit links to. */
  MAP_TILE_ATTRIBUTION: z.string().max(300).default('© OpenStreetMap contributors'),
  MAP_TILE_ATTRIBUTION_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/, 'must be an http:// or https:// address')
    .default('https://www.openstreetmap.org/copyright'),
  /** The host name (with :port if it matters) whose requests get the payments-only app, e.g. pay.example.com. */
  PAYMENTS_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.-]+(:\d{1,5})?$/, 'must be a host name, optionally with :port, e.g. pay.example.com')
    .optional(),
  /** Serve the payments-only app on every host (an instance only for the agency's clients). */
  PAYMENTS_ONLY: bool.default(false),
  /** Administrators may sign in to the payments-only app too (its account list and forms); staff otherwise use the CRM's own address. */
  PAYMENTS_ADMINS: bool.default(false),
  FIRST_PAINT: bool.default(true),
  /** How long a signed-in screen waits for the server's drawing, from its request, before the plain page goes (plugins/web.ts). */
  FIRST_PAINT_MS: z.coerce.number().int().min(100).max(60_000).default(800),
  /**
   * Behind a reverse proxy: trust its X-Forwarded-* headers (client address for throttling, https
   * links). `true` trusts whoever connects; better, the balancer's addresses or networks, comma
   * separated (`10.0.0.5,10.0.1.0/24`, or `loopback`, `linklocal`, `uniquelocal`), so a client that
   * reaches an instance directly cannot choose its own address.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v, ctx): boolean | string[] => {
      const word = v.trim().toLowerCase();
      if (['true', '1', 'yes'].includes(word)) return true;
      if (['false', '0', 'no'].includes(word)) return false;
      const list = v.split(',').map((x) => x.trim()).filter(Boolean);
      const bad = list.filter((x) => !isProxyAddress(x));
      if (!list.length || bad.length) {
        ctx.addIssue({ code: 'custom', message: `true, false, or the proxies' addresses or networks, comma separated (not ${bad.join(', ') || 'an empty list'})` });
        return z.NEVER;
      }
      return list;
    }),
  /** Where the built web app is (default apps/web/dist). */
  WEB_DIST: z.string().optional(),
  /** Daily backups (see README "Backups"); false turns them off. Default: on, except for the test suite. */
  BACKUPS: bool.optional(),
  /** Where backups are written (default DATA_DIR/backups). */
  BACKUP_DIR: z.string().min(1).optional(),
  /** How many backups are kept, the newest; 0 turns the daily backups off. */
  BACKUP_KEEP: z.coerce.number().int().min(0).max(10000).default(14),
  /** The agency's time (TIME_ZONE) of the daily backup, HH:MM. */
  BACKUP_AT: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day HH:MM, e.g. 03:30')
    .default('03:30'),
  /**
   * A read-only address of the same database (a streaming replica): lists, searches, exports and
   * reports read from it, except a user's reads right after their own write (decision 061).
   */
  DATABASE_READ_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  /**
   * A direct address of the primary (not through a pooler in transaction mode): the connection that
   * LISTENs for the database's news, and the migrations' lock. Default: DATABASE_URL.
   */
  DATABASE_DIRECT_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  /** false behind a pooler in transaction mode (PgBouncer): statements are not kept prepared by name on a connection. */
  DATABASE_PREPARED_STATEMENTS: bool.default(true),
  /** Connections this instance keeps open to the primary (and as many to the replica). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(500).default(20),
  /** After SIGTERM: seconds the instance still serves while answering "not ready", so the load balancer stops sending to it first. */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().int().min(0).max(300).default(0),
  /**
   * Exports made at once across all instances on the database (list and personal-data spreadsheets,
   * not backup downloads; at most 2 of one user's); one more is answered 429 "busy, try again shortly" (decision 098). Give every
   * instance the same number.
   */
  EXPORTS_AT_ONCE: z.coerce.number().int().min(1).max(1000).default(4),
  /** Where stored files live: local (DATA_DIR/files) or s3 (an S3-compatible store, the S3_* settings). */
  STORAGE: z.enum(['local', 's3']).default('local'),
  /** The store's address (MinIO, Ceph, Garage, R2, Wasabi...); empty for Amazon S3 itself. */
  S3_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/[^\s/?#]+\/?$/, 'must be an http:// or https:// address without a path, e.g. https://s3.example.com')
    .optional(),
  S3_REGION: z.string().regex(/^[a-z0-9-]{2,40}$/, 'must be a region name, e.g. eu-central-1').default('us-east-1'),
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3-63 lower-case letters, digits, dots, hyphens)').optional(),
  /** Keys of the store; without them the AWS SDK's own chain is used (AWS_* variables, an instance role). */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Address buckets as endpoint/bucket rather than bucket.endpoint (most S3-compatible stores want true). */
  S3_FORCE_PATH_STYLE: bool.default(false),
  /** A folder in the bucket for this CRM's files, e.g. crm/ (ends with /). */
  S3_PREFIX: z.string().regex(/^([A-Za-z0-9._-]+\/)*$/, 'must be empty or folder names each ending with /, e.g. crm/').default(''),
  /** Seconds a presigned address of a photo is valid (browsers then read photos from the store directly); 0: photos go through the app. */
  S3_PRESIGN_SECONDS: z.coerce.number().int().min(0).max(7 * 24 * 3600).default(0),
  /** when_required for stores that do not accept the SDK's newer checksum headers (many S3-compatible ones). */
  S3_CHECKSUMS: z.enum(['when_supported', 'when_required']).default('when_supported'),
  /** Lower scrypt cost; only for the test suite. */
  PASSWORD_HASH_FAST: bool.default(false),
  /** Wrong passwords allowed per account (per known device) before each further try waits, the wait doubling. */
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  /** Failed sign-ins allowed from one client address before its tries wait too (known devices are exempt). */
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(100),
  /** The longest wait between tries once the free ones are used up. */
  LOGIN_LOCK_MINUTES: z.coerce.number().int().min(1).default(15),
  /** Sign-ins that may wait for the password check at once; more are answered "busy, try again". */
  LOGIN_HASH_QUEUE: z.coerce.number().int().min(1).max(1000).default(16),
  /** Calls one API key may make a minute (decision 080); more are answered 429. */
  API_KEY_CALLS_PER_MINUTE: z.coerce.number().int().min(1).max(100000).default(600),
  /** Webhooks may be sent to private addresses (10.x, 172.16-31.x, 192.168.x, fc00::/7, localhost); link-local and metadata addresses never. */
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  /** A mail's remote pictures may be fetched from private addresses (tests; a sender on the office network); never link-local or metadata ones. */
  MAIL_IMAGES_ALLOW_PRIVATE: bool.default(false),
  /** Mailboxes whose server offers IDLE are watched over a held connection, new mail synced within seconds (decision 090). */
  MAIL_IDLE: bool.default(true),
  /**
   * How often every active mailbox is polled (the fallback where IDLE is not offered or its connection is
   * down). 45 s: a mail reaches the record within a minute, the poll's own sync included (bench:mail).
   */
  MAIL_POLL_SECONDS: z.coerce.number().int().min(10).max(86400).default(45),
  /**
   * How long a mailbox's sync holds it against every other sync (decision 078) without renewing:
   * renewed every third of it while the sync runs, so another instance takes over this long after
   * the holder died. 300 s; tests keep it short.
   */
  MAIL_SYNC_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(300),
  /**
   * How long a file written to the store before the row naming it commits (a synced mail's
   * attachment, decision 104) may stay unnamed before the housekeeping removes it as an orphan.
   * At least 10 minutes: a live sync still writing a large attachment is not to lose it (it would
   * store nothing and try again). Tests sweep with their own grace (sweepPendingFiles' argument).
   */
  STORED_FILE_GRACE_SECONDS: z.coerce.number().int().min(600).max(7 * 24 * 3600).default(3600),
  /** The authserv-id of the agency's receiving mail server, whose Authentication-Results header alone is read for portal mail (decision 090). */
  MAIL_AUTHSERV_ID: z.string().trim().min(1).max(255).optional(),
  /** The wait before a failed delivery is tried again; each further wait doubles (at most an hour). */
  WEBHOOK_RETRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** How long a receiver has to answer one delivery. */
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(120).default(10),
  /** How much longer than a receiver's time allowed an instance holds an endpoint while it sends: another takes over this long after it died mid-send. */
  WEBHOOK_HOLD_EXTRA_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
});

/** The names of every setting the server reads (deploy/'s files are checked against them). */
export const SETTING_NAMES: readonly string[] = Object.keys(ZEnv.shape);

/** The S3-compatible store of stored files (STORAGE=s3). */
export type S3Settings = {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  prefix: string;
  presignSeconds: number;
  checksums: 'when_supported' | 'when_required';
};

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** Where e-mailed links point: PUBLIC_URL, else http://localhost:PORT. Never the request's Host. */
  publicUrl: string;
  /** Whether PUBLIC_URL was set (the start-up log warns when links point to localhost). */
  publicUrlSet: boolean;
  adminEmail: string;
  adminPassword?: string;
  timeZone: string;
  sessionHours: number;
  smtpUrl?: string;
  mailFrom: string;
  /** MAIL_SECRET_KEY, the mailboxes' passwords' key; without it the embedded setup keeps one in DATA_DIR (lib/secret-box.ts). */
  mailSecretKey?: string;
  /** MYDATA_URL and MYDATA_RETRY_SECONDS (decision 085). */
  mydataUrl: string;
  mydataRetrySeconds: number;
  logLevel: string;
  demoData: boolean;
  uploadMaxBytes: number;
  upload: { requestMaxBytes: number; maxFiles: number; pendingMaxBytes: number; unattachedHours: number };
  map: { tileUrl: string; attribution: string; attributionUrl: string };
  /** Requests to this host (exact match, lower case) get the payments-only app. */
  paymentsHost?: string;
  /** Every request gets the payments-only app. */
  paymentsOnly: boolean;
  /** Administrators may sign in to the payments-only app (its calls only); otherwise only payments clients may. */
  paymentsAdmins: boolean;
  /**
   * Where links mailed to payments clients point (invitations, expense approvals): PUBLIC_URL with
   * its host replaced by PAYMENTS_HOST when that is set. Never the request's Host.
   */
  paymentsUrl: string;
  webDist?: string;
  /** Screens opened by their address are drawn on the server first (decision 054); FIRST_PAINT=false turns it off. */
  firstPaint: boolean;
  /** FIRST_PAINT_MS: a screen's drawing is waited for this long from its request, then the browser draws it (issue 45: within 1 s). */
  firstPaintMs: number;
  /** true, false, or the proxies' addresses and networks (Fastify's trustProxy). */
  trustProxy: boolean | string[];
  passwordHashFast: boolean;
  /** daily: a backup every day at `at` (the agency's clock); keep: the newest kept (0: all). */
  backup: { daily: boolean; dir: string; keep: number; at: string };
  login: { maxFailuresPerAccount: number; maxFailuresPerIp: number; lockMinutes: number; hashQueue: number };
  /** The replica, the direct address, prepared statements and the pool (decision 061). */
  database: { readUrl?: string; directUrl?: string; preparedStatements: boolean; poolSize: number };
  /** Stored files in an S3-compatible store; undefined: on local disk under DATA_DIR/files. */
  s3?: S3Settings;
  shutdownDrainSeconds: number;
  /** EXPORTS_AT_ONCE: exports being made at once across all instances (decision 098). */
  exportsAtOnce: number;
  /** Mail in (decision 090): IDLE on, the polling interval, the receiving server's authserv-id. */
  mailIn: { idle: boolean; pollSeconds: number; authservId?: string; syncLeaseSeconds: number };
  /** STORED_FILE_GRACE_SECONDS: a file named pending this long is an orphan the housekeeping removes (decision 104). */
  storedFileGraceSeconds: number;
  /** API keys and webhooks (decision 080). */
  integrations: { keyCallsPerMinute: number; webhookAllowPrivate: boolean; mailImagesAllowPrivate: boolean; webhookRetrySeconds: number; webhookTimeoutMs: number; webhookHoldExtraSeconds: number };
};

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Parses the environment; throws ConfigError listing every bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(ZEnv.shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') raw[key] = v;
  }
  const parsed = ZEnv.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.')}=${JSON.stringify(raw[String(i.path[0])] ?? '')}: ${i.message}`),
    );
  }
  const e = parsed.data;
  const problems: string[] = [];
  if (e.STORAGE === 's3' && !e.S3_BUCKET) problems.push('S3_BUCKET="": is required when STORAGE=s3');
  if (e.STORAGE === 's3' && !!e.S3_ACCESS_KEY_ID !== !!e.S3_SECRET_ACCESS_KEY) problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: give both, or neither (the AWS SDK then finds them)');
  if ((e.DATABASE_READ_URL || e.DATABASE_DIRECT_URL) && !e.DATABASE_URL) problems.push('DATABASE_URL="": is required with DATABASE_READ_URL or DATABASE_DIRECT_URL (the embedded server has no replica)');
  if (problems.length) throw new ConfigError(problems);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT || 3000}`).replace(/\/$/, ''),
    publicUrlSet: e.PUBLIC_URL !== undefined,
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    timeZone: e.TIME_ZONE,
    sessionHours: e.SESSION_HOURS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    mailSecretKey: e.MAIL_SECRET_KEY,
    mydataUrl: e.MYDATA_URL.replace(/\/+$/, ''),
    mydataRetrySeconds: e.MYDATA_RETRY_SECONDS,
    logLevel: e.LOG_LEVEL,
    demoData: e.DEMO_DATA,
    uploadMaxBytes: e.UPLOAD_MAX_MB * 1024 * 1024,
    upload: {
      requestMaxBytes: e.UPLOAD_REQUEST_MAX_MB * 1024 * 1024,
      maxFiles: e.UPLOAD_MAX_FILES,
      pendingMaxBytes: e.UPLOAD_PENDING_MAX_MB * 1024 * 1024,
      unattachedHours: e.UPLOAD_UNATTACHED_HOURS,
    },
    map: { tileUrl: e.MAP_TILE_URL, attribution: e.MAP_TILE_ATTRIBUTION, attributionUrl: e.MAP_TILE_ATTRIBUTION_URL },
    paymentsHost: e.PAYMENTS_HOST?.toLowerCase(),
    paymentsOnly: e.PAYMENTS_ONLY,
    paymentsAdmins: e.PAYMENTS_ADMINS,
    paymentsUrl: paymentsUrlOf((e.PUBLIC_URL ?? `http://localhost:${e.PORT || 3000}`).replace(/\/$/, ''), e.PAYMENTS_HOST?.toLowerCase()),
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : undefined,
    firstPaint: e.FIRST_PAINT,
    firstPaintMs: e.FIRST_PAINT_MS,
    trustProxy: e.TRUST_PROXY,
    passwordHashFast: e.PASSWORD_HASH_FAST,
    backup: {
      daily: (e.BACKUPS ?? e.NODE_ENV !== 'test') && e.BACKUP_KEEP > 0,
      dir: path.resolve(e.BACKUP_DIR ?? path.join(e.DATA_DIR, 'backups')),
      keep: e.BACKUP_KEEP,
      at: e.BACKUP_AT,
    },
    login: {
      maxFailuresPerAccount: e.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      maxFailuresPerIp: e.LOGIN_MAX_FAILURES_PER_IP,
      lockMinutes: e.LOGIN_LOCK_MINUTES,
      hashQueue: e.LOGIN_HASH_QUEUE,
    },
    database: { readUrl: e.DATABASE_READ_URL, directUrl: e.DATABASE_DIRECT_URL, preparedStatements: e.DATABASE_PREPARED_STATEMENTS, poolSize: e.DATABASE_POOL_SIZE },
    s3:
      e.STORAGE === 's3'
        ? {
            endpoint: e.S3_ENDPOINT?.replace(/\/$/, ''),
            region: e.S3_REGION,
            bucket: e.S3_BUCKET!,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
            prefix: e.S3_PREFIX,
            presignSeconds: e.S3_PRESIGN_SECONDS,
            checksums: e.S3_CHECKSUMS,
          }
        : undefined,
    shutdownDrainSeconds: e.SHUTDOWN_DRAIN_SECONDS,
    exportsAtOnce: e.EXPORTS_AT_ONCE,
    mailIn: { idle: e.MAIL_IDLE, pollSeconds: e.MAIL_POLL_SECONDS, authservId: e.MAIL_AUTHSERV_ID?.toLowerCase(), syncLeaseSeconds: e.MAIL_SYNC_LEASE_SECONDS },
    storedFileGraceSeconds: e.STORED_FILE_GRACE_SECONDS,
    integrations: {
      keyCallsPerMinute: e.API_KEY_CALLS_PER_MINUTE,
      webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
      mailImagesAllowPrivate: e.MAIL_IMAGES_ALLOW_PRIVATE,
      webhookRetrySeconds: e.WEBHOOK_RETRY_SECONDS,
      webhookTimeoutMs: e.WEBHOOK_TIMEOUT_SECONDS * 1000,
      webhookHoldExtraSeconds: e.WEBHOOK_HOLD_EXTRA_SECONDS,
    },
  };
}

/** PUBLIC_URL on the payments host: its scheme and path, the payments host (and its port, else PUBLIC_URL's). */
export function paymentsUrlOf(publicUrl: string, paymentsHost: string | undefined): string {
  if (!paymentsHost) return publicUrl;
  const u = new URL(publicUrl);
  if (paymentsHost.includes(':')) u.host = paymentsHost;
  else u.hostname = paymentsHost;
  return u.toString().replace(/\/$/, '');
}
