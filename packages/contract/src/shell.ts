import { z } from 'zod';
import { SEARCH_ENTITIES } from './constants.ts';
import type { CallSchemas } from './call.ts';

export const ZHealth = z.object({ status: z.literal('ok'), database: z.literal('ok'), version: z.string() });

export const ZLocalizationEntry = z.object({ key: z.string(), text: z.string(), culture: z.enum(['en', 'el', 'ru']) });
export type TLocalizationEntry = z.infer<typeof ZLocalizationEntry>;
export const ZLocalizationList = z.array(ZLocalizationEntry);
/** `culture` asks for one language only (English fills any text it lacks); without it, all three. */
export const ZLocalizationQuery = z.object({ culture: z.enum(['en', 'el', 'ru']).optional() });

/** Kinds of search hits (entity) and of links between records. */
export const ZSearchEntity = z.enum(SEARCH_ENTITIES);

export const ZSearchQuery = z.object({ searchStr: z.string().max(200).optional().default('') });
export const ZSearchHit = z.object({ id: z.number().int(), description: z.string(), entity: ZSearchEntity });
export type TSearchHit = z.infer<typeof ZSearchHit>;
export const ZSearchAnswer = z.object({ items: z.array(ZSearchHit) });

export const ZRecentAction = z.object({
  id: z.number().int(),
  date: z.string(),
  action: z.string(),
  entity: z.string(),
  entityId: z.number().int().nullable(),
  message: z.string().nullable(),
  /** A property's reference number ("0042"), as the action log names it; null for other records. */
  reference: z.string().nullable(),
  /** An alert's entry: its data (a deleted system alert's text key and values); a mailbox's: its name (the agency's words, as its message); null for other records. */
  data: z.unknown(),
});
export const ZHome = z.object({
  username: z.string(),
  /** How the home page greets the user: the first name on their account (else its name); null without an account. */
  name: z.string().nullable(),
  unreadAlerts: z.number().int(),
  recent: z.array(ZRecentAction),
});
export type THome = z.infer<typeof ZHome>;

/** Which app a host serves: the CRM, or the payments-only variant (payments host or flag). */
export const APP_VARIANTS = ['crm', 'payments'] as const;
export type TAppVariant = (typeof APP_VARIANTS)[number];

/** The limits of one upload request (POST /api/files, a document's or a payment's form with its files). */
export const ZUploadLimits = z.object({
  /** Largest single file, in bytes. */
  fileMaxBytes: z.number().int().positive(),
  /** All files of one request together, in bytes. */
  requestMaxBytes: z.number().int().positive(),
  /** Files in one request. */
  maxFiles: z.number().int().positive(),
  /** The types (MIME) a photo of an object may have: the pictures the server makes its copies from. */
  photoTypes: z.array(z.string()),
});
export type TUploadLimits = z.infer<typeof ZUploadLimits>;

/** GET /api/config (public: the sign-in page needs it too): the settings the web app needs from the server's configuration. */
export const ZWebConfig = z.object({
  variant: z.enum(APP_VARIANTS),
  /** The agency's time zone (IANA name): the clock the API's dates and date-times are on. */
  timeZone: z.string(),
  /**
   * That zone's offsets from a day ago to a year and a month ahead: from `from` (epoch ms) on, the
   * clock is `offsetMinutes` ahead of UTC, until the next period's `from`, the last one until
   * `until`. The browser reads the agency's "now" from them without loading the time-zone data
   * (60 ms on a fast laptop's first use, four times that on a phone).
   */
  clock: z.object({ until: z.number().int(), periods: z.array(z.object({ from: z.number().int(), offsetMinutes: z.number().int() })).min(1) }),
  map: z.object({
    /** Leaflet tile template: {z}/{x}/{y} (and {s}). */
    tileUrl: z.string(),
    /** Plain text crediting the tiles, and where it links to. */
    attribution: z.string(),
    attributionUrl: z.string(),
  }),
  /**
   * What an upload may hold, as the server enforces it (UPLOAD_MAX_MB, UPLOAD_REQUEST_MAX_MB,
   * UPLOAD_MAX_FILES): the web app refuses a file past them before sending anything. The server
   * checks again.
   */
  upload: ZUploadLimits,
});
export type TWebConfig = z.infer<typeof ZWebConfig>;

/** /api/health/live: the process answers (a balancer's liveness check; no database asked). */
export const ZLiveness = z.object({ status: z.literal('live'), version: z.string() });
/**
 * /api/health/ready: whether this instance should be sent requests. 200 when the database answers
 * and is migrated to what this version expects, and the instance is not draining; otherwise 503 with
 * the reason.
 */
export const ZReadiness = z.object({
  status: z.enum(['ready', 'notReady']),
  reason: z.enum(['draining', 'databaseUnreachable', 'notMigrated', 'starting']).optional(),
  version: z.string(),
  instance: z.string(),
});

/** GET /api/Alert/unreadCount: the navbar badge's number. */
export const ZUnreadCount = z.number().int();

/**
 * The shell's calls and their schemas (decision 057): health, texts, the web's settings, the
 * alerts badge, global search, the home page; their methods and paths: `shell.resource.ts`.
 */
export const SHELL_API = {
  health: { answer: ZHealth },
  localization: { query: ZLocalizationQuery, answer: ZLocalizationList },
  config: { answer: ZWebConfig },
  unreadCount: { answer: ZUnreadCount },
  search: { query: ZSearchQuery, answer: ZSearchAnswer },
  home: { answer: ZHome },
} satisfies Record<string, CallSchemas>;

/** What a load balancer asks of an instance (decision 062). */
export const HEALTH_API = {
  live: { answer: ZLiveness },
  ready: { answer: ZReadiness },
} satisfies Record<string, CallSchemas>;
