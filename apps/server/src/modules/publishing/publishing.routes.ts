import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import {
  ZIdParam,
  ZObjectPublishState,
  ZPublicList,
  ZPublicListQuery,
  ZPublicObject,
  ZPublicObjectQuery,
  ZPublicRefParam,
  formatReferenceNumber,
  isEmailList,
  isPhoneList,
  isStorableText,
  type TCulture,
  type TPublicListDto,
  type TPublicObjectDto,
} from '@crm/contract';
import { notFound } from '../../lib/errors.ts';
import { cultureFromHeader } from '../../lib/i18n.ts';
import { rateLimit } from '../../lib/throttle.ts';
import { STAFF } from '../../plugins/auth.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { feedStream } from './feed.xml.ts';
import { publishErrorText } from './publish.rules.ts';
import type { Tx } from '../../db/client.ts';
import { createAlert } from '../alerts/alerts.create.ts';
import { PUBLISH_JOB, SYSTEM_ACTOR, objectsAwaitingPublish, publishOnChange, runPublish, type PublishOutcome, type TPublishJob } from './publishing.service.ts';
import { createEnquiry, getPublic, publicPlaceName, listPublic, parsePublicRef, publicPhoto, publicPlaces, readFilter, type TEnquiry } from './public.service.ts';
import { listPage, notFoundPage, objectPage, siteNameOf, type ContactState, type PageContext } from './public.pages.ts';
import { objectUrl, toPublicDto } from './public.view.ts';
import { PublicPageCache } from './public.cache.ts';
import { GALLERY_SCRIPT, GALLERY_SCRIPT_VERSION } from './public.script.ts';
import { getSiteContact } from '../settings/site-settings.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The public pages and answers as made lately (public.cache.ts). */
    publicPages: PublicPageCache;
  }
}

/**
 * Publishing: a change of an object's publish request (or of a published object) starts the
 * publishing job, which publishes, refuses (publishError) or withdraws the object.
 */
export const publishingRoutes = fp(
  async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();

    /** A refusal is told to the office: an alert about the object, made with the refusal. */
    const onRefused = async (tx: Tx, out: PublishOutcome) => {
      const ref = out.referenceNumber ?? '';
      const list = (out.codes ?? []).map((c) => app.translator.t('en', c)).join('; ');
      // One alert per property says what is missing now: a refusal again (each auto-save while the
      // admin fills the gaps runs the job) replaces the earlier ones nobody has opened yet.
      await tx.execute(sql`delete from alerts where kind = 'publish' and entity = 'Object' and entity_id = ${out.objectId} and readed_on is null and notes is null`);
      await createAlert(tx, {
        source: 'Publishing',
        kind: 'publish',
        messageKey: 'publishing.alert.refused',
        params: { ref },
        content: `Property #${ref} was not published on the website: ${list}.`,
        entity: 'Object',
        entityId: out.objectId,
      });
    };
    app.decorate('publicPages', new PublicPageCache());

    // The durable job (decision 020): retried with back-off, run once across instances. It judges the
    // object as it is when it runs, so a repeated or late run is harmless.
    app.jobs.register<TPublishJob>(
      PUBLISH_JOB,
      async (job) => {
        await runPublish(app.db, job, { onRefused });
        app.publicPages.clear();
      },
      { maxAttempts: 5, backoffSeconds: 10 },
    );
    const enqueue = (job: TPublishJob, tx?: Tx) =>
      app.jobs.enqueue(PUBLISH_JOB, job as unknown as Record<string, unknown>, { tx, singletonKey: `object:${job.objectId}` });
    app.objectChangeListeners.push(publishOnChange(async (job, tx) => void (await enqueue(job, tx))));

    // A request whose job never got queued (a crash between two versions of the app) is queued at start-up.
    app.addHook('onReady', async () => {
      for (const objectId of await objectsAwaitingPublish(app.db)) await enqueue({ objectId, actor: SYSTEM_ACTOR });
    });

    app.get(
      '/api/object/publishState/:id',
      { config: { access: STAFF }, schema: { tags: ['objects'], params: ZIdParam, response: { 200: ZObjectPublishState } } },
      async (req) => {
        const rows = await app.db.execute(sql`
          select id, reference_number as "referenceNumber", publish_requested as "publishRequested", published, publish_error as "publishError"
          from objects where id = ${req.params.id}`);
        const row = rows.rows[0] as { id: number; referenceNumber: number; publishRequested: boolean; published: boolean; publishError: string | null } | undefined;
        if (!row) throw notFound('objects.notFound');
        const ref = formatReferenceNumber(row.referenceNumber);
        return {
          id: row.id,
          referenceNumber: ref,
          publishRequested: row.publishRequested,
          published: row.published,
          publishError: publishErrorText(row.publishError, (k, p) => app.translator.t(req.culture, k, p)),
          publicUrl: row.published && row.publishRequested ? objectUrl(req.culture, ref) : null,
        };
      },
    );
  },
  { name: 'publishing', dependencies: ['objects'] },
);

const CULTURES: readonly TCulture[] = ['en', 'el', 'ru'];
const EMAIL = /^[^\s@<>()[\]\\,;:"]{1,64}@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]{2,}$/;
const HTML = 'text/html; charset=utf-8';
const SHARED_CACHE = 'public, max-age=60, s-maxage=60, stale-while-revalidate=300';

/**
 * The agency's public site, no sign-in: /listings (list with filters), /listings/{ref} (the object
 * with photos, map and contact form), the published objects' photos and the portal feed. Pages are
 * made on the server: small, fast on a phone, whole without script (one small script file only adds
 * the gallery's previous/next buttons).
 */
export async function publicSiteRoutes(app: FastifyInstance) {
  // The contact form posts as a browser does (urlencoded); this parser is for these routes only.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 32 * 1024 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  const cultureOf = (req: FastifyRequest): TCulture => {
    const q = (req.query as Record<string, unknown>).lang;
    if (typeof q === 'string' && (CULTURES as readonly string[]).includes(q)) return q as TCulture;
    return cultureFromHeader(req.headers['accept-language']) ?? 'el';
  };
  const ctxOf = async (culture: TCulture): Promise<PageContext> => {
    const site = await getSiteContact(app.db);
    return {
      culture,
      t: (key, params) => app.translator.t(culture, key, params),
      tileUrl: app.config.map.tileUrl,
      attribution: app.config.map.attribution,
      attributionUrl: app.config.map.attributionUrl,
      baseUrl: app.config.publicUrl,
      site,
    };
  };
  /**
   * A page: shared caches (a CDN or reverse proxy) may keep it a minute and serve it a little
   * longer while they fetch it again; a browser that has it asks with its ETag and gets a 304.
   */
  const page = (reply: FastifyReply, status: number, body: string, cache = SHARED_CACHE) => {
    reply.status(status).header('Content-Type', HTML).header('Cache-Control', cache).header('Vary', 'Accept-Language');
    if (status === 200 && cache !== 'no-store') {
      const etag = `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
      reply.header('ETag', etag);
      if (reply.request.headers['if-none-match'] === etag) return reply.status(304).send();
    }
    return reply.send(body);
  };

  const config = { access: 'public' as const };
  const schema = { hide: true };

  const cached = (culture: TCulture, req: FastifyRequest) => `${culture} ${req.url}`;

  app.get('/listings', { config, schema }, async (req, reply) => {
    const culture = cultureOf(req);
    const key = cached(culture, req);
    const hit = app.publicPages.get(key);
    if (typeof hit === 'string') return page(reply, 200, hit);
    const ctx = await ctxOf(culture);
    const filter = readFilter(req.query as Record<string, unknown>);
    const [{ items, total }, places] = await Promise.all([listPublic(app.db, filter, culture, ctx.t), publicPlaces(app.db, culture, ctx.t)]);
    const placeName = filter.place ? await publicPlaceName(app.db, culture, filter.place) : undefined;
    const body = listPage(ctx, filter, items, total, places, placeName);
    app.publicPages.set(key, body);
    return page(reply, 200, body);
  });

  const showObject = async (req: FastifyRequest, reply: FastifyReply, ref: string, contact: ContactState, status = 200) => {
    const culture = cultureOf(req);
    const ctx = await ctxOf(culture);
    const n = parsePublicRef(ref);
    const o = n === undefined ? undefined : await getPublic(app.db, n, culture, ctx.t);
    if (!o) return page(reply, 404, notFoundPage(ctx), 'no-store');
    const body = objectPage(ctx, o, contact);
    const plain = !contact.sent && !contact.values && status === 200;
    if (plain) app.publicPages.set(cached(culture, req), body);
    return page(reply, status, body, plain ? SHARED_CACHE : 'no-store');
  };

  app.get('/listings/:ref', { config, schema }, async (req, reply) => {
    const { ref } = req.params as { ref: string };
    const sent = (req.query as Record<string, unknown>).sent === '1';
    const key = cached(cultureOf(req), req);
    const hit = sent ? undefined : app.publicPages.get(key);
    if (typeof hit === 'string') return page(reply, 200, hit);
    await showObject(req, reply, ref, { sent });
    return reply;
  });

  // The form's address opened as a page (a reload of the answer, a shared or remembered link): the
  // property's page at its form, in the same language; never the CRM's sign-in.
  app.get('/listings/:ref/contact', { config, schema }, async (req, reply) => {
    const { ref } = req.params as { ref: string };
    const lang = (req.query as Record<string, unknown>).lang;
    const n = parsePublicRef(ref);
    const target = n === undefined ? '/listings' : `/listings/${formatReferenceNumber(n)}`;
    const q = typeof lang === 'string' && (CULTURES as readonly string[]).includes(lang) ? `?lang=${lang}` : '';
    return reply.header('Cache-Control', 'no-store').redirect(`${target}${q}${n === undefined ? '' : '#contact'}`, 303);
  });

  app.post('/listings/:ref/contact', { config, schema }, async (req, reply) => {
    const culture = cultureOf(req);
    const ctx = await ctxOf(culture);
    const { t } = ctx;
    const { ref } = req.params as { ref: string };
    const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
    // A form sends a line break as CRLF, which the textarea's maxlength counted as one character.
    const text = (k: string) => (typeof body[k] === 'string' ? (body[k] as string) : '').replace(/\r\n?/g, '\n').trim();
    const values = { name: text('name'), email: text('email'), phone: text('phone'), message: text('message') };
    const n = parsePublicRef(ref);
    const o = n === undefined ? undefined : await getPublic(app.db, n, culture, t);
    if (!o) return page(reply, 404, notFoundPage(ctx), 'no-store');
    // A filled-in hidden field: a robot. It is answered as a person would be, and nothing is kept.
    if (text('website')) return reply.redirect(`/listings/${o.ref}?lang=${culture}&sent=1#contact`, 303);

    const errors: Record<string, string> = {};
    for (const [k, v] of Object.entries(values)) if (!isStorableText(v)) errors[k] = t('validation.badCharacters');
    if (!values.name) errors.name = t('validation.required');
    else if (values.name.length > 100) errors.name = t('validation.tooLong', { max: 100 });
    if (!values.email) errors.email = t('validation.required');
    // The rules of an account's e-mail and phone too: the enquiry becomes a client's account, which
    // must be savable as it is (a "maria..k@" or two numbers in one box could not be saved again).
    else if (values.email.length > 200 || !EMAIL.test(values.email) || !isEmailList(values.email)) errors.email = t('validation.email');
    if (values.phone.length > 40 || (values.phone && (!/^[0-9+()\-.\s/]{5,40}$/.test(values.phone) || !isPhoneList(values.phone)))) errors.phone = t('publishing.contact.badPhone');
    if (!values.message) errors.message = t('validation.required');
    else if (values.message.length > 2000) errors.message = t('validation.tooLong', { max: 2000 });
    if (Object.keys(errors).length) return showObject(req, reply, ref, { values, errors, problem: t('publishing.contact.fix') }, 400);

    // Five enquiries an hour from one address, three for one e-mail.
    const wait =
      (await rateLimit(app.db, `enquiry-ip:${req.ip}`, 5, 3600)) ?? (await rateLimit(app.db, `enquiry-email:${values.email.toLowerCase()}`, 3, 3600));
    // Too many: the form again with what they typed, to send later (no phone number is promised).
    if (wait !== null) {
      reply.header('Retry-After', String(wait));
      return showObject(req, reply, ref, { values, problem: t('publishing.contact.tooMany') }, 429);
    }

    const enquiry: TEnquiry = { name: values.name, email: values.email, phone: values.phone || null, message: values.message };
    // Withdrawn from the site between the form's check and the enquiry's transaction: not found, as a moment later.
    if (!(await createEnquiry(app, o.id, o.ref, enquiry, culture, (k, p) => app.translator.t('el', k, p)))) return page(reply, 404, notFoundPage(ctx), 'no-store');
    return reply.redirect(`/listings/${o.ref}?lang=${culture}&sent=1#contact`, 303);
  });

  // The gallery's buttons (public.script.ts): its address carries a hash of its content.
  app.get('/listings/gallery.js', { config, schema }, async (req, reply) =>
    reply
      .header('Content-Type', 'text/javascript; charset=utf-8')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', (req.query as Record<string, unknown>).v === GALLERY_SCRIPT_VERSION ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
      .send(GALLERY_SCRIPT),
  );

  app.get('/listings/photo/:systemName', { config, schema }, async (req, reply) => {
    const { systemName } = req.params as { systemName: string };
    const size = (req.query as Record<string, unknown>).size === 'thumb' ? 'thumb' : 'web';
    const notThere = () => reply.status(404).header('Content-Type', 'text/plain; charset=utf-8').send('Not found');
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(systemName)) return notThere();
    const photo = await publicPhoto(app.db, systemName);
    // Only the copies made on upload (no camera data in them), never the original.
    const name = photo ? (size === 'thumb' ? (photo.thumbName ?? photo.webName) : photo.webName) : null;
    if (!name) return notThere();
    const stream = await getFileStorage(app.config.dataDir).get(name);
    if (!stream) return notThere();
    return reply
      .header('Content-Type', 'image/webp')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'public, max-age=600')
      .send(stream);
  });

  app.get('/feed/listings.xml', { config, schema }, async (req, reply) => {
    const culture = cultureOf(req);
    const ctx = await ctxOf(culture);
    return reply
      .header('Content-Type', 'application/xml; charset=utf-8')
      .header('Cache-Control', 'public, max-age=300, s-maxage=300')
      .header('Vary', 'Accept-Language')
      .send(feedStream(app.db, app.config.publicUrl, culture, ctx.t, siteNameOf(ctx)));
  });

  // The same, as JSON, for the agency's own website or apps (no sign-in; only what the pages show).
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const apiCulture = (req: FastifyRequest, lang: TCulture | undefined) => lang ?? cultureFromHeader(req.headers['accept-language']) ?? 'el';
  typed.get(
    '/api/public/listings',
    { config, schema: { tags: ['public'], security: [], querystring: ZPublicListQuery, response: { 200: ZPublicList } } },
    async (req, reply) => {
      const q = req.query;
      const culture = apiCulture(req, q.lang);
      reply.header('Cache-Control', SHARED_CACHE).header('Vary', 'Accept-Language');
      const key = `api ${culture} ${req.url}`;
      const hit = app.publicPages.get(key);
      if (hit) return hit as TPublicListDto;
      const t = (key: string, params?: Record<string, string | number>) => app.translator.t(culture, key, params);
      const { items, total } = await listPublic(
        app.db,
        { service: q.service, kind: q.kind, place: q.place, priceMin: q.priceMin, priceMax: q.priceMax, bedrooms: q.bedrooms, sort: q.sort, page: q.currentPage, perPage: q.perPage },
        culture,
        t,
      );
      const answer = { items: items.map((o) => toPublicDto(o, culture)), totalRows: total };
      app.publicPages.set(key, answer);
      return answer;
    },
  );
  typed.get(
    '/api/public/listings/:ref',
    { config, schema: { tags: ['public'], security: [], params: ZPublicRefParam, querystring: ZPublicObjectQuery, response: { 200: ZPublicObject } } },
    async (req, reply) => {
      const culture = apiCulture(req, req.query.lang);
      const key = `api ${culture} ${req.url}`;
      const hit = app.publicPages.get(key);
      if (hit) return reply.header('Cache-Control', SHARED_CACHE).header('Vary', 'Accept-Language').send(hit as TPublicObjectDto);
      const o = await getPublic(app.db, Number(req.params.ref), culture, (key, params) => app.translator.t(culture, key, params));
      if (!o) throw notFound('publishing.notFound.title');
      const answer = toPublicDto(o, culture);
      app.publicPages.set(key, answer);
      reply.header('Cache-Control', SHARED_CACHE).header('Vary', 'Accept-Language');
      return answer;
    },
  );
}
