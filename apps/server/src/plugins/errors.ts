import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../lib/errors.ts';

const TITLE_KEY: Record<number, string> = {
  400: 'errors.validation',
  401: 'errors.unauthorized',
  403: 'errors.accessDenied',
  404: 'errors.notFound',
  409: 'errors.conflict',
  413: 'errors.tooLarge',
  415: 'errors.unsupportedType',
  429: 'errors.tooManyRequests',
  500: 'errors.internal',
};

type Issue = { keyword: string; instancePath: string; message?: string; params?: Record<string, unknown> };

function issueMessage(issue: Issue): { code: string; params: Record<string, string | number> } {
  const p = issue.params ?? {};
  const num = (v: unknown) => (typeof v === 'number' || typeof v === 'bigint' ? Number(v) : 0);
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
      return { code: 'validation.format', params: {} };
    case 'invalid_value':
      return { code: 'validation.choice', params: {} };
    case 'unrecognized_keys':
      return { code: 'validation.unknownField', params: {} };
    default:
      return { code: 'validation.invalid', params: {} };
  }
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
        detail: Object.entries(errors)
          .map(([f, msgs]) => `${f}: ${msgs.join(', ')}`)
          .join('\n'),
        errors,
      });
    }
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
    if (status >= 500) {
      req.log.error({ err }, 'request failed');
      return send(req, reply, 500, { title: t('errors.internal'), code: 'errors.internal' });
    }
    const key = TITLE_KEY[status] ?? 'errors.badRequest';
    // Fastify's own 4xx (bad JSON, too large, wrong content type): keep its detail, translate the title.
    return send(req, reply, status, { title: t(key), code: key, detail: err.message });
  });

  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api')) {
      return send(req, reply, 404, { title: app.translator.t(req.culture, 'errors.notFound'), code: 'errors.notFound' });
    }
    return reply.callNotFound();
  });
});
