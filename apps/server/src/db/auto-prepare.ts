import type pg from 'pg';

/**
 * Statements a connection runs again become prepared statements (as pgjdbc's prepareThreshold):
 * from a text's second use on a connection, it is sent as a named statement, so PostgreSQL parses
 * it once and, where its generic plan costs no more than the custom ones, plans it once too. At
 * full size the record views spent more time planning than running (an object's view: 3-5 ms of
 * planning against 0.4-1.5 ms of execution per statement, measured with pg_stat_statements).
 *
 * Only statements whose best plan does not depend on the values are prepared: a generic plan, chosen
 * after five custom ones, ignores the values. List pages (a top-level ORDER BY with a LIMIT value, or OFFSET), counts, patterns
 * (LIKE) and arrays (ANY, unnest) are planned for each run: there the values decide between an index
 * walk and a scan, and prepared they got slower at full size (the objects by place 111 -> 240 ms p95,
 * an employee's to-dos 134 -> 266 ms). What is prepared is mostly a record and its parts looked up
 * by id, and writes.
 *
 * A connection keeps at most MAX_PREPARED of them, the least recently used going first (DEALLOCATE,
 * queued after anything still waiting to use it). Statements run with a name already, text-only
 * calls (`client.query('begin')`) and submittable queries (cursors, streams) are left as they are.
 */
const PREPARE_FROM_USE = 2;
const MAX_PREPARED = 200;
/** Texts counted per connection (the ones used once included) before the oldest are forgotten. */
const MAX_TRACKED = 2000;

type Entry = { uses: number; name?: string };
type QueryConfig = { text: string; name?: string; values?: unknown[]; rowMode?: string; types?: unknown };
type Parsed = { connection?: { parsedStatements?: Record<string, string> } };

let sequence = 0;

/** Anywhere in a statement: its plan may depend on the values (see above). */
const VALUE_SENSITIVE = /\b(?:like|ilike|similar|unnest|any|all|count)\b|~~/i;
/**
 * At the top level (outside parentheses): a page of a list, i.e. an OFFSET or an ORDER BY with a
 * LIMIT given as a value. A record's own rows in order, with a fixed limit written in the statement
 * (an object's newest 100 leads), are fine.
 */
const PAGE = /\boffset\b|\border\s+by\b[\s\S]*\blimit\s+\$\d+/i;

/** The statement without anything in parentheses (subqueries, function arguments, grouped conditions). */
function topLevel(text: string): string {
  let out = '';
  let depth = 0;
  for (const ch of text) {
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0) out += ch;
  }
  return out;
}

/** Whether a statement is prepared when it comes again (its plan does not depend on the values). */
export function isPlanStable(text: string): boolean {
  return !VALUE_SENSITIVE.test(text) && !PAGE.test(topLevel(text));
}

/**
 * isPlanStable of the texts seen lately, shared by every connection: every statement of every
 * request asked it, and reading a statement of a few kilobytes character by character took more of
 * the app's time under the bench than the rest of this layer (profiled: 0.67 s against 0.37 s).
 * At most MAX_JUDGED texts are kept (the oldest judged going first); the app's statements are a few
 * hundred texts.
 */
const MAX_JUDGED = 2000;
/** Longer texts (one placeholder per id of a long list) are judged each time, never kept: judging costs what writing them did. */
const MAX_JUDGED_LENGTH = 16 * 1024;
const judged = new Map<string, boolean>();
function planStable(text: string): boolean {
  if (text.length > MAX_JUDGED_LENGTH) return isPlanStable(text);
  let stable = judged.get(text);
  if (stable === undefined) {
    stable = isPlanStable(text);
    if (judged.size >= MAX_JUDGED) judged.delete(judged.keys().next().value as string);
    judged.set(text, stable);
  }
  return stable;
}

export function autoPrepare(client: pg.PoolClient, opts: { maxPrepared?: number } = {}): void {
  const maxPrepared = opts.maxPrepared ?? MAX_PREPARED;
  const entries = new Map<string, Entry>(); // insertion order: least recently used first
  let prepared = 0;
  const base = () => Object.getPrototypeOf(client) as { query: (...args: unknown[]) => unknown };

  const forget = (text: string, entry: Entry) => {
    entries.delete(text);
    if (!entry.name) return;
    prepared--;
    const name = entry.name;
    // Queued behind every query already waiting (one of them may still use the name); the driver's
    // record of it goes once the server has let it go.
    void (base().query.call(client, `deallocate ${name}`) as Promise<unknown>)
      .then(() => delete (client as unknown as Parsed).connection?.parsedStatements?.[name])
      .catch(() => undefined);
  };

  (client as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: unknown, ...args: unknown[]) {
    const [config] = args;
    if (
      config !== null &&
      typeof config === 'object' &&
      typeof (config as QueryConfig).text === 'string' &&
      (config as QueryConfig).name === undefined &&
      typeof (config as { submit?: unknown }).submit !== 'function' &&
      planStable((config as QueryConfig).text)
    ) {
      const text = (config as QueryConfig).text;
      let entry = entries.get(text);
      if (entry) {
        entries.delete(text);
        entries.set(text, entry);
      } else {
        entry = { uses: 0 };
        entries.set(text, entry);
        if (entries.size > MAX_TRACKED) {
          const [oldText, oldEntry] = entries.entries().next().value as [string, Entry];
          forget(oldText, oldEntry);
        }
      }
      entry.uses++;
      if (entry.uses >= PREPARE_FROM_USE) {
        if (!entry.name) {
          if (prepared >= maxPrepared) {
            for (const [t, e] of entries) {
              if (e.name) {
                forget(t, e);
                break;
              }
            }
          }
          entry.name = `crm_auto_${++sequence}`;
          prepared++;
        }
        return base().query.call(client, { ...(config as QueryConfig), name: entry.name }, ...args.slice(1));
      }
    }
    return base().query.apply(client, args);
  };
}
