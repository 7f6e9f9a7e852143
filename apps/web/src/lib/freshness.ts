/**
 * How long a record's answer counts as just read. Record screens read their record afresh on every
 * opening (staleTime 0: a form starts from the latest version). In view mode they take an answer
 * this recent instead: it is their route's prefetch of this very opening (app/prefetch.ts), asked
 * while the screen's code loaded. Edit modes still read afresh.
 */
export const JUST_READ_MS = 2000;
