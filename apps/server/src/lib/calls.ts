import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
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
};

/**
 * Registers a resource's calls (decision 057): the method and path from its route table, the
 * schemas from its API, one route each, every call of the table answered (the type demands a route
 * for each). A route cannot differ from its declaration: the web's client reads the same table.
 */
export function registerCalls<M extends Record<string, CallSchemas>>(
  app: FastifyInstance,
  table: Calls<M>,
  schemas: M,
  routes: { [K in keyof M]: CallRoute<M[K]> },
  opts: { tags: string[] },
): void {
  for (const name of Object.keys(table) as (keyof M & string)[]) {
    const call = table[name];
    const s: CallSchemas = schemas[name];
    const r = routes[name] as unknown as CallRoute<CallSchemas>;
    const schema: RouteShorthandOptions['schema'] & Record<string, unknown> = { tags: opts.tags };
    if (s.params) schema.params = s.params;
    if (s.query) schema.querystring = s.query;
    if (s.body) schema.body = s.body;
    if (s.answer) schema.response = { 200: s.answer };
    if (r.consumes) schema.consumes = r.consumes;
    if (r.file) schema.description = r.file;
    app.route({
      method: call.method,
      url: call.path,
      config: { ...r.config, access: r.access },
      ...(r.bodyLimit !== undefined ? { bodyLimit: r.bodyLimit } : {}),
      schema,
      handler: r.handler as (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
    });
  }
}
