import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isStorableText } from '@crm/contract';
import { AppError } from '../lib/errors.ts';

const TITLE_KEY: Record<number, string> = {
  400: 'errors.validation',
  401: 'errors.unauthorized',
  403: 'errors.accessDenied',
  404: 'errors.notFound',
  409: 'errors.conflict',
  413: 'errors.tooLarge',
  415: 'errors.unsupportedType',
  428: 'errors.versionRequired',
  429: 'errors.tooManyRequests',
  500: 'errors.internal',
};

export type Issue = { keyword: string; instancePath: string; message?: string; params?: Record<string, unknown> };

/** A message the contract gave a check: a text key ("reservations.tooLong"), not zod's own English sentence. */
const TEXT_KEY = /^[a-z][A-Za-z0-9]*(\.[A-Za-z0-9_]+)+$/;

export function issueMessage(issue: Issue): { code: string; params: Record<string, string | number> } {
  const p = issue.params ?? {};
  const num = (v: unknown) => (typeof v === 'number' || typeof v === 'bigint' ? Number(v) : 0);
  // A limit the contract words itself (a stay's nights): its text, told the limit.
  if (issue.keyword === 'too_big' && issue.message && TEXT_KEY.test(issue.message)) return { code: issue.message, params: { max: num(p.maximum) } };
  if (issue.keyword === 'too_small' && issue.message && TEXT_KEY.test(issue.message)) return { code: issue.message, params: { min: num(p.minimum) } };
  switch (issue.keyword) {
    case 'invalid_type':
      if (/received undefined|received null/.test(issue.message ?? '')) return { code: 'validation.required', params: {} };
      return { code: 'validation.invalidType', params: {} };
    case 'too_small':
      if (p.origin === 'string' && num(p.minimum) <= 1) return { code: 'validation.required', params: {} };
      if (p.origin === 'string') return { code: 'validation.tooShort', params: { min: num(p.minimum) } };
      if (p.origin === 'array') return { code: 'validation.tooFew', params: { min: num(p.minimum) } };
      return { code: 'validation.tooSmall', params: { min: num(p.minimum) } };
    case 'too_big':
      if (p.origin === 'string') return { code: 'validation.tooLong', params: { max: num(p.maximum) } };
      if (p.origin === 'array') return { code: 'validation.tooMany', params: { max: num(p.maximum) } };
      return { code: 'validation.tooBig', params: { max: num(p.maximum) } };
    case 'invalid_format':
      if (p.format === 'email') return { code: 'validation.email', params: {} };
      // A pattern the contract names its message for (an e-mail by a lenient pattern ...).
      if (issue.message?.startsWith('validation.')) return { code: issue.message, params: {} };
      return { code: 'validation.format', params: {} };
    case 'invalid_value':
      return { code: 'validation.choice', params: {} };
    case 'not_multiple_of':
      // e.g. a map circle's radius in steps of 10 m
      return { code: 'fields.step', params: { step: num(p.divisor) } };
    case 'unrecognized_keys':
      return { code: 'validation.unknownField', params: {} };
    case 'custom':
      // The contract's own checks name their message key (validation.date, validation.badCharacters ...).
      if (issue.message?.startsWith('validation.')) return { code: issue.message, params: {} };
      return { code: 'validation.invalid', params: {} };
    default:
      return { code: 'validation.invalid', params: {} };
  }
}

/** Fastify's own refusals of a request body, told in the caller's language. */
const FASTIFY_DETAIL: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'errors.badJson',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'errors.emptyBody',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'errors.unsupportedType',
  FST_ERR_CTP_BODY_TOO_LARGE: 'errors.tooLarge',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'errors.badRequest',
};

/**
 * Paths of the strings (values or keys) in a request part that PostgreSQL could not store: a NUL
 * character or half of a surrogate pair. Walks without recursion, so deep JSON cannot overflow.
 */
export function badTextPaths(value: unknown, root: string): string[] {
  const found: string[] = [];
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length && found.length < 20) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (!isStorableText(v)) found.push(path);
    } else if (Array.isArray(v)) {
      v.forEach((x, i) => stack.push([x, `${path}.${i}`]));
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        const p = path ? `${path}.${k}` : k;
        if (!isStorableText(k)) found.push(path || 'request');
        else stack.push([x, p]);
      }
    }
  }
  return found;
}

/** Every failure leaves as problem details, its texts in the caller's language. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  const send = (_req: FastifyRequest, reply: FastifyReply, status: number, body: Record<string, unknown>) => {
    if (status === 401) reply.header('WWW-Authenticate', 'Bearer');
    return reply.status(status).type('application/problem+json').send({ status, ...body });
  };

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const t = (key: string, params?: Record<string, string | number>) => app.translator.t(req.culture, key, params);
    if (err instanceof AppError) {
      const errors = err.fieldErrors
        ? Object.fromEntries(Object.entries(err.fieldErrors).map(([f, list]) => [f, list.map((e) => t(e.code, e.params))]))
        : undefined;
      const title = t(err.code, err.params);
      return send(req, reply, err.status, {
        title,
        code: err.code,
        ...(errors ? { errors, detail: Object.values(errors).flat().join('\n') } : {}),
        ...(err.current !== undefined ? { current: err.current } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors: Record<string, string[]> = {};
      for (const issue of err.validation as unknown as Issue[]) {
        const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || (err.validationContext ?? 'request');
        const m = issueMessage(issue);
        (errors[field] ??= []).push(t(m.code, m.params));
      }
      return send(req, reply, 400, {
        title: t('errors.validation'),
        code: 'errors.validation',
        // What a person reads (a screen shows it where a field is not on it): the messages, in the
        // reader's language, without the API's field paths ("salePrice: …", "emails.0: …").
        detail: [...new Set(Object.values(errors).flat())].join('\n'),
        errors,
      });
    }
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
    if (status >= 500) {
      req.log.error({ err }, 'request failed');
      return send(req, reply, 500, { title: t('errors.internal'), code: 'errors.internal' });
    }
    const key = TITLE_KEY[status] ?? 'errors.badRequest';
    // Fastify's own 4xx (bad JSON, too large, wrong content type): the title and, where we know the
    // case, the detail in the caller's language.
    const detailKey = (err.code && FASTIFY_DETAIL[err.code]) || (err instanceof SyntaxError ? 'errors.badJson' : undefined);
    return send(req, reply, status, { title: t(key), code: key, detail: detailKey ? t(detailKey) : err.message });
  });

  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api')) {
      // An address that is no call at all: not "the record was deleted".
      return send(req, reply, 404, { title: app.translator.t(req.culture, 'errors.noSuchCall'), code: 'errors.noSuchCall' });
    }
    return reply.callNotFound();
  });

  // Every string a request brings (path, query, body; a login name too) must be storable text:
  // checked once here for every route, before the route's own schema.
  app.addHook('preValidation', async (req) => {
    if (!req.url.startsWith('/api')) return;
    const paths = [...badTextPaths(req.params, ''), ...badTextPaths(req.query, ''), ...badTextPaths(req.body, '')];
    if (!paths.length) return;
    throw new AppError(400, 'errors.validation', {}, Object.fromEntries(paths.map((p) => [p || 'request', [{ code: 'validation.badCharacters' }]])));
  });
});
