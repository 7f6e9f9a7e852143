import type { z } from 'zod';

/**
 * The API's calls, declared once (decision 057). A resource's schemas (zod) live in its module
 * (`deals.ts`: `DEAL_API`), and its route table here-shaped (`deals.resource.ts`: `DEAL`) names each
 * call's method and path, typed by those schemas through type-only imports: the server registers
 * its routes from the pair (a route cannot differ from its declaration), and the web calls them
 * by the table, typed, without loading zod.
 */
export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** The schemas of one call: the path's params, the query string, the body, the answer (200). */
export type CallSchemas = { params?: z.ZodType; query?: z.ZodType; body?: z.ZodType; answer?: z.ZodType };

/** One call: its method and path (`/api/Deal/edit/:id`); `S` types it (a phantom: never there at run time). */
export type Call<S extends CallSchemas = CallSchemas> = { readonly method: Method; readonly path: string; readonly __schemas?: S };

/** A resource's route table: one call per name of its schemas. */
export type Calls<M extends Record<string, CallSchemas>> = { readonly [K in keyof M]: Call<M[K]> };

/** A call as the spec writes it: its method, a space, its path (`'POST /api/Deal/update'`). */
export type Route = `${Method} /${string}`;

/** The route table of a resource, its calls named as its schemas are (type-checked both ways). */
export function calls<M extends Record<string, CallSchemas>>(table: { readonly [K in keyof M]: Route }): Calls<M> {
  const out: Record<string, Call> = {};
  for (const [name, route] of Object.entries(table) as [string, Route][]) {
    const space = route.indexOf(' ');
    out[name] = { method: route.slice(0, space) as Method, path: route.slice(space + 1) };
  }
  return out as Calls<M>;
}

type In<T> = T extends z.ZodType ? z.input<T> : never;
type Out<T> = T extends z.ZodType ? z.output<T> : never;
type SchemasOf<C> = C extends Call<infer S> ? S : never;

/** What the web sends for a call: the params, query and body its schemas accept (only those it has). */
export type RequestOf<C> = (SchemasOf<C>['params'] extends z.ZodType ? { params: In<SchemasOf<C>['params']> } : { params?: undefined }) &
  (SchemasOf<C>['query'] extends z.ZodType ? { query?: In<SchemasOf<C>['query']> } : { query?: undefined }) &
  (SchemasOf<C>['body'] extends z.ZodType ? { body: In<SchemasOf<C>['body']> } : { body?: undefined });

/** What a call answers (its answer schema's output; unknown for a file or an answer not described). */
export type AnswerOf<C> = SchemasOf<C>['answer'] extends z.ZodType ? Out<SchemasOf<C>['answer']> : unknown;

/** The path of a call with its params filled in (`/api/Deal/edit/:id`, { id: 3 } → `/api/Deal/edit/3`), each encoded. */
export function pathOf(call: Pick<Call, 'path'>, params?: Record<string, unknown>): string {
  return call.path.replace(/:(\w+)/g, (_m, name: string) => {
    const v = params?.[name];
    if (v === undefined || v === null || v === '') throw new Error(`${call.path}: no value for :${name}`);
    return encodeURIComponent(String(v));
  });
}

/**
 * The address of a GET call, for what the browser fetches itself (a file's link, a photo's `src`, the
 * texts or the settings asked before the api client runs): its path with its params filled in and
 * encoded, and a query string of the values given (none empty), both typed by the call's schemas.
 */
export function urlOf<C extends Call>(call: C, request: Pick<RequestOf<C>, 'params' | 'query'>): string {
  const r = request as { params?: Record<string, unknown>; query?: Record<string, unknown> };
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(r.query ?? {})) if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
  const q = search.toString();
  const path = pathOf(call, r.params);
  return q ? `${path}?${q}` : path;
}

/** The params a screen's or call's path names: `/Objects/View/:id/:viewMode?` → { id; viewMode? }. */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? ParamOf<Name> & PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? ParamOf<Name>
    : unknown;
type ParamOf<Name extends string> = Name extends `${infer Optional}?` ? { [K in Optional]?: string | number | null } : { [K in Name]: string | number };

/**
 * A link to a screen (its path as the router declares it), its params filled in and encoded, an
 * optional param left out with its slash, and a query string of the values given.
 */
export function href<P extends string>(path: P, ...args: keyof PathParams<P> extends never ? [params?: undefined, query?: Record<string, unknown>] : [params: PathParams<P>, query?: Record<string, unknown>]): string {
  const [params, query] = args as [Record<string, unknown> | undefined, Record<string, unknown> | undefined];
  const filled = path.replace(/\/:(\w+)(\?)?/g, (_m, name: string, optional?: string) => {
    const v = params?.[name];
    if (v === undefined || v === null || v === '') {
      if (optional) return '';
      throw new Error(`${path}: no value for :${name}`);
    }
    return `/${encodeURIComponent(String(v))}`;
  });
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
  const q = search.toString();
  return q ? `${filled}?${q}` : filled;
}

/** A list's sort key as kept (a cookie, an address): one the call sorts by, else the call's own default (undefined). */
export function sortKey<K extends string>(allowed: readonly K[], kept: string | undefined): K | undefined {
  return allowed.includes(kept as K) ? (kept as K) : undefined;
}

/**
 * A list screen as the web's list kit draws it, declared once with its resource: the test id of its
 * parts (`<testId>-page`, the count, `<testId>-filter`, `<testId>-table`, `<testId>-add`), the keys of
 * its title and of what an empty list says (none at all; none matching the filter, where that differs), and its Add:
 * the screen it opens and the key of its text (test ids where the spec's differ).
 */
export type ListDeclaration = {
  readonly testId: string;
  readonly title: string;
  readonly empty: string;
  readonly noMatch?: string;
  readonly add?: { readonly to: string; readonly label: string; readonly testId?: string; readonly emptyTestId?: string };
};
