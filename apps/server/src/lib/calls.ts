import type { FastifyContextConfig, FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { z } from 'zod';
import type { Calls, CallSchemas } from '@crm/contract';
import type { Access } from '../plugins/auth.ts';

type Out<T> = T extends z.ZodType ? z.output<T> : unknown;

/** The request of a call as its handler reads it: params, query and body as its schemas give them. */
export type CallRequest<S extends CallSchemas> = FastifyRequest<{ Params: Out<S['params']>; Querystring: Out<S['query']>; Body: Out<S['body']> }>;

/** How the server answers one call: who may call it, and the handler; the rest is the route's own (a body limit, a file cookie). */
export type CallRoute<S extends CallSchemas> = {
  access: Access;
  handler: (req: CallRequest<S>, reply: FastifyReply) => Promise<unknown>;
  config?: Omit<FastifyContextConfig, 'access'>;
  bodyLimit?: number;
  /** The content types the call takes, for the OpenAPI document (multipart/form-data). */
  consumes?: string[];
  /** What the OpenAPI document says of an answer that is a file. */
  file?: string;
  /** The call's OpenAPI tags where they are not its resource's (the jobs' calls of the alerts module). */
  tags?: string[];
  /** Answers other than the 200, for the OpenAPI document (a conditional GET's 304). */
  answers?: Record<number, z.ZodType>;
  /** A failure answered otherwise than as problem details (a file's link opened in a tab gets a page). */
  errorHandler?: (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => unknown;
  /** No sign-in is asked for, and the OpenAPI document says so (the public site's JSON). */
  noBearer?: boolean;
  /** Left out of the OpenAPI document: a page, not a call of the API (the public site's HTML). */
  hide?: boolean;
};

/** The routes of a resource's calls, one per call of its table: the type demands every one. */
export type CallRoutes<M extends Record<string, CallSchemas>> = { [K in keyof M]: CallRoute<M[K]> };

/**
 * Registers a resource's calls (decision 057): the method and path from its route table, the
 * schemas from its API, one route each, every call of the table answered (the type demands a route
 * for each). A route cannot differ from its declaration: the web's client reads the same table.
 * The routes go in the table's order (the OpenAPI document lists them so).
 */
export function registerCalls<M extends Record<string, CallSchemas>>(
  app: FastifyInstance,
  table: Calls<M>,
  schemas: M,
  routes: CallRoutes<M>,
  opts: { tags: string[] },
): void {
  for (const name of Object.keys(table) as (keyof M & string)[]) {
    const call = table[name];
    const s: CallSchemas | undefined = schemas[name];
    const r = routes[name] as unknown as CallRoute<CallSchemas> | undefined;
    if (!s || !r) throw new Error(`${call.method} ${call.path}: the call "${name}" has no ${s ? 'route' : 'schemas'}`);
    const schema: RouteShorthandOptions['schema'] & Record<string, unknown> = r.hide ? { hide: true } : { tags: r.tags ?? opts.tags };
    if (r.noBearer) schema.security = [];
    if (s.params) schema.params = s.params;
    if (s.query) schema.querystring = s.query;
    if (s.body) schema.body = s.body;
    if (s.answer) schema.response = { 200: s.answer, ...r.answers };
    if (r.consumes) schema.consumes = r.consumes;
    if (r.file) schema.description = r.file;
    app.route({
      method: call.method,
      url: call.path,
      config: { ...r.config, access: r.access },
      ...(r.bodyLimit !== undefined ? { bodyLimit: r.bodyLimit } : {}),
      ...(r.errorHandler ? { errorHandler: r.errorHandler } : {}),
      schema,
      handler: r.handler as (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
    });
  }
}

/**
 * The route of a call that does something and answers `{ ok: true }` (a delete, a mark, a retry):
 * who may call it and what it does; the answer follows once the doing is done.
 */
export function okRoute<S extends CallSchemas>(access: Access, run: (req: CallRequest<S>) => Promise<unknown>): CallRoute<S> {
  return {
    access,
    handler: async (req) => {
      await run(req);
      return { ok: true as const };
    },
  };
}
