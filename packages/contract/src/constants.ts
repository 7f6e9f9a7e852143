// Values shared by server and web that need no schema library: the web imports these from
// '@crm/contract/constants' so that the first page does not carry zod.

export const ROLES = ['admin', 'employee', 'clientPayments'] as const;
export type TRole = (typeof ROLES)[number];

/** Interface languages: the cookie value; and the localization cultures. */
export const LANGUAGES = ['en-UK', 'el', 'ru'] as const;
export type TLanguage = (typeof LANGUAGES)[number];
export const CULTURES = ['en', 'el', 'ru'] as const;
export type TCulture = (typeof CULTURES)[number];
/** The kinds of mail the CRM sends, each shown in the settings' mail preview. */
export const MAIL_KINDS = ['reset', 'invite', 'paymentsInvite', 'approval', 'shortlist', 'alert'] as const;
export type TMailKind = (typeof MAIL_KINDS)[number];
export const cultureOf = (language: string | null | undefined): TCulture =>
  language === 'el' ? 'el' : language === 'ru' ? 'ru' : 'en';

export const PASSWORD_MIN_LENGTH = 8;

/** Page sizes of ordinary lists; 1000000 means "Show all". */
export const LIST_PAGE_SIZES = [5, 10, 20, 50, 1000000] as const;
export const SHOW_ALL = 1000000;

export const SEARCH_ENTITIES = ['Account', 'Object', 'Owner', 'Client', 'Lead', 'Professional', 'Source', 'Employe'] as const;
export const LINK_KINDS = ['Undefined', 'Object', 'Account', 'Activity', 'Demand', 'Deal', 'Reservation', 'Viewing'] as const;
export const LinkKind = { Undefined: 0, Object: 1, Account: 2, Activity: 3, Demand: 4, Deal: 5, Reservation: 6, Viewing: 7, Document: 8, Mandate: 9 } as const;

export const SEARCH_MAX_HITS = 20;
export const SEARCH_DEBOUNCE_MS = 400;
export const ALERT_POLL_MS = 300000;
export const AUTOSAVE_MS = 400;
/** The location autocomplete searches once typing has paused this long; at most SEARCH_MAX_HITS places. */
export const LOCATION_SEARCH_DEBOUNCE_MS = 500;
/** The alert list's default page size, and the longest notes an alert keeps. */
export const ALERT_DEFAULT_PAGE_SIZE = 10;
export const ALERT_NOTES_MAX = 4000;

/** How many cards each stage of the deal board shows at first, and how many more each "Show more" adds (at most DEAL_BOARD_MAX). */
export const DEAL_BOARD_STEP = 20;
export const DEAL_BOARD_MAX = 500;

/**
 * Addresses the server answers with pages of its own, outside the web app: the public listings,
 * their feeds and the calendar addresses (a .ics a person may open in the browser). The web app's service worker leaves them to the server (it answers every other page
 * address with the app); a server test checks that every page route the server has lies under one.
 */
export const SERVER_PAGE_PREFIXES = ['/listings', '/feed/', '/calendar/'] as const;
/** Whether a path is one of the server's own pages (SERVER_PAGE_PREFIXES). */
export const isServerPage = (pathname: string) => SERVER_PAGE_PREFIXES.some((p) => pathname === p || pathname.startsWith(p.endsWith('/') ? p : `${p}/`));

/**
 * Screens of the web app whose page the server writes per address (its status, title, link-preview
 * tags and headers: a shortlist's link answers 404 or 410 when it does not work). The service worker
 * sends their navigations to the network rather than answering with the cached app, so a browser
 * that has the app installed gets the server's answer too; a server test checks that every such
 * route lies under one.
 */
export const SERVER_WRITTEN_SCREENS = ['/Shortlist/', '/OwnerReport/', '/Sign/'] as const;
/** Whether a path is one of the screens the server writes per address (SERVER_WRITTEN_SCREENS). */
export const isServerWrittenScreen = (pathname: string) => SERVER_WRITTEN_SCREENS.some((p) => pathname.startsWith(p));

/**
 * Text as the searches compare it (the app's side of the database's crm_search_norm): accents and
 * case ignored, the final sigma as sigma, spaces collapsed.
 */
export const plainText = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ς/g, 'σ')
    .replace(/\s+/g, ' ')
    .trim();

/** The longest comment on a property shown at a viewing (a few sentences; the form's box stops there). */
export const VIEWING_COMMENT_MAX = 1000;
/** The longest text searched for in the viewings' comments (a few words, not a comment). */
export const VIEWING_COMMENT_SEARCH_MAX = 200;
/** A lead's viewings shown at first on its page, and loaded at each "Show more". */
export const LEAD_VIEWINGS_PAGE = 20;
/** At most this many viewings, as many planned activities, and as many check-ins and check-outs together, in one answer of the calendar. */
export const CALENDAR_MAX_EACH = 2000;

/** The most properties one shortlist sends to a client (decision 049). */
export const SHORTLIST_MAX_OBJECTS = 20;

/** A mailbox syncs the mail of the last so many months (decision 078): the default, and the most one may ask. */
export const MAIL_SYNC_MONTHS_DEFAULT = 6;
export const MAIL_SYNC_MONTHS_MAX = 120;
/** The longest mailbox signature (issue 46, decision 089). */
export const MAIL_SIGNATURE_MAX = 2000;

/** What a record's timeline shows: activities and mail together (the default), or one kind. */
export const TIMELINE_KINDS = ['all', 'activities', 'mail'] as const;
export type TTimelineKind = (typeof TIMELINE_KINDS)[number];
/**
 * The most rows a page of mail holds (GET /api/mail), and so a timeline's page with its mail in it
 * ("All", "E-mails"): "Show all" is the activities' alone (the spec's list keeps its page sizes).
 */
export const MAIL_PAGE_MAX = 200;
