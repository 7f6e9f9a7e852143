import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import {
  PUBLIC_SITE_API,
  PUBLISHING_API,
  formatReferenceNumber,
  isEmailList,
  isPhoneList,
  isStorableText,
  type TCulture,
  type TPublicListDto,
  type TPublicObjectDto,
} from '@crm/contract';
import { PUBLIC_SITE, PUBLISHING } from '@crm/contract/resources';
import { AppError, notFound } from '../../lib/errors.ts';
import { WorkLimiter } from '../../lib/work-limiter.ts';
import { cultureFromHeader, limitAsWritten } from '../../lib/i18n.ts';
import { rateLimit } from '../../lib/throttle.ts';
import { STAFF } from '../../plugins/auth.ts';
import { registerCalls } from '../../lib/calls.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { feedStream } from './feed.xml.ts';
import { publishErrorText } from './publish.rules.ts';
import type { Tx } from '../../db/client.ts';
import { createAlert } from '../alerts/alerts.create.ts';
import { loadSharp } from '../files/pictures.ts';
import { PUBLISH_JOB, SYSTEM_ACTOR, enqueuePublish, objectsAwaitingPublish, publishOnChange, runPublish, type PublishOutcome, type TPublishJob } from './publishing.service.ts';
import { ENQUIRY_LIMITS, createEnquiry, enquiryTaken, getPublic, publicPlaceName, listPublic, parsePublicRef, publicPhoto, publicPlaces, readFilter, similarPublic, type TEnquiry } from './public.service.ts';
import { ENQUIRY_MESSAGE_MAX, listPage, notFoundPage, objectPage, siteNameOf, termsPage, withdrawnPage, type ContactState, type PageContext } from './public.pages.ts';
import { objectUrl, photoUrl, toPublicDto } from './public.view.ts';
import { PublicPageCache } from './public.cache.ts';
import { GALLERY_SCRIPT, GALLERY_SCRIPT_VERSION } from './public.script.ts';
import { countSiteView } from './site-views.ts';
import { agencyIdentity, LOGO_PATH } from '../settings/site-settings.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The public pages and answers as made lately (public.cache.ts). */
    publicPages: PublicPageCache;
  }
}

/** The JPEG copies of public photos made for the portals, kept in memory up to 64 MB (oldest out first). */
const keptJpegs = new Map<string, Buffer>();
let keptBytes = 0;
function keepJpeg(name: string, jpeg: Buffer) {
  if (keptJpegs.has(name)) return;
  keptJpegs.set(name, jpeg);
  keptBytes += jpeg.length;
  for (const [k, v] of keptJpegs) {
    if (keptBytes <= 64 * 1024 * 1024) break;
    keptJpegs.delete(k);
    keptBytes -= v.length;
  }
}
const jpegWork = new WorkLimiter(2, 16);

/**
 * Publishing: a change of an object's publish request (or of a published object) starts the
 * publishing job, which publishes, refuses (publishError) or withdraws the object.
 */

export const publishingRoutes = fp(
  async (root: FastifyInstance) => {
    const app = root;

    /** The refusal alerts of an object nobody has opened or annotated yet. */
    const dropRefusalAlerts = async (tx: Tx, objectId: number) => {
      await tx.execute(sql`delete from alerts where kind = 'publish' and entity = 'Object' and entity_id = ${objectId} and readed_on is null and notes is null`);
    };
    /**
     * A refusal is told to the office: an alert about the object, made with the refusal. Not for a
     * property taken off because its sale closed: the office closed it, nothing is missing.
     */
    const onRefused = async (tx: Tx, out: PublishOutcome) => {
      const ref = out.referenceNumber ?? '';
      const list = (out.codes ?? []).map((c) => app.translator.t('en', c)).join('; ');
      // One alert per property says what is missing now: a refusal again (each auto-save while the
      // admin fills the gaps runs the job) replaces the earlier ones nobody has opened yet.
      await dropRefusalAlerts(tx, out.objectId!);
      if ((out.codes ?? []).every((c) => c === 'publishing.sold')) return;
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
    // Emptied at the agency's midnight too: a tenancy's first or last day, an "available from" date, change pages without a row changing.
    app.decorate('publicPages', new PublicPageCache({ timeZone: app.config.timeZone, now: () => app.now() }));
    // A published property changed, withdrawn or deleted, or the site's details changed, here or on
    // another instance (migration 0052): the pages kept are stale once that has committed.
    app.dbNotices.on('crm_public_site', () => app.publicPages.clear());

    // The durable job (decision 020): retried with back-off, run once across instances. It judges the
    // object as it is when it runs, so a repeated or late run is harmless.
    app.jobs.register<TPublishJob>(
      PUBLISH_JOB,
      async (job) => {
        // Published or withdrawn: a refusal told earlier is no longer so.
        await runPublish(app.db, job, { onRefused, onSettled: dropRefusalAlerts });
        app.publicPages.clear();
      },
      { maxAttempts: 5, backoffSeconds: 10 },
    );
    const enqueue = (job: TPublishJob, tx?: Tx) => enqueuePublish(app, job, tx);
    app.objectChangeListeners.push(publishOnChange(async (job, tx) => void (await enqueue(job, tx))));

    // A request whose job never got queued (a crash between two versions of the app) is queued at start-up.
    app.addHook('onReady', async () => {
      for (const objectId of await objectsAwaitingPublish(app.db)) await enqueue({ objectId, actor: SYSTEM_ACTOR });
    });

    registerCalls(
      app,
      PUBLISHING.calls,
      PUBLISHING_API,
      {
        state: {
          access: STAFF,
          handler: async (req) => {
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
        },
      },
      { tags: ['objects'] },
    );
  },
  { name: 'publishing', dependencies: ['objects'] },
);

const CULTURES: readonly TCulture[] = ['en', 'el', 'ru'];
const EMAIL = /^[^\s@<>()[\]\\,;:"]{1,64}@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]{2,}$/;
const HTML = 'text/html; charset=utf-8';
const SHARED_CACHE = 'public, max-age=60, s-maxage=60, stale-while-revalidate=300';
/** The formats of the photos' copies, by their names' extension. */
const IMAGE_TYPES: Record<string, string> = { webp: 'image/webp', jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', avif: 'image/avif' };

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
    const a = await agencyIdentity(app);
    const t: PageContext['t'] = (key, params) => app.translator.t(culture, key, params);
    const site = {
      name: a.nameIn(culture, t('publishing.site.name')), phone: a.phone, email: a.email, address: a.address,
      website: a.website, licence: a.licence, taxNumber: a.taxNumber, taxOffice: a.taxOffice, logo: a.logo ? `${LOGO_PATH}?v=${a.version}` : null,
    };
    return { culture, t, tileUrl: app.config.map.tileUrl, attribution: app.config.map.attribution, attributionUrl: app.config.map.attributionUrl, baseUrl: a.publicUrl, site };
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

  const cached = (culture: TCulture, req: FastifyRequest) => `${culture} ${req.url}`;
  /** The address asked for, in another language: the 404 page's language links keep it. */
  const sameAddress = (req: FastifyRequest) => (c: TCulture) => {
    const u = new URL(req.url, 'http://x');
    u.searchParams.set('lang', c);
    return `${u.pathname}${u.search}`;
  };

  const sendList = async (req: FastifyRequest, reply: FastifyReply) => {
    const culture = cultureOf(req);
    const body = await app.publicPages.keep(cached(culture, req), async () => {
      const ctx = await ctxOf(culture);
      const filter = readFilter(req.query as Record<string, unknown>);
      const [{ items, total }, places] = await Promise.all([listPublic(app.db, filter, culture, ctx.t), publicPlaces(app.db, culture, ctx.t)]);
      const placeName = filter.place ? await publicPlaceName(app.db, culture, filter.place) : undefined;
      return listPage(ctx, filter, items, total, places, placeName);
    });
    return page(reply, 200, body);
  };

  // The site's terms for its visitors (an enquiry's details, what else the site keeps), in their language.
  const sendTerms = async (req: FastifyRequest, reply: FastifyReply) => {
    const culture = cultureOf(req);
    const body = await app.publicPages.keep(cached(culture, req), async () => termsPage(await ctxOf(culture)));
    return page(reply, 200, body);
  };

  const showObject = async (req: FastifyRequest, reply: FastifyReply, ref: string, contact: ContactState, status = 200) => {
    const culture = cultureOf(req);
    const since = app.publicPages.mark();
    const ctx = await ctxOf(culture);
    const n = parsePublicRef(ref);
    const o = n === undefined ? undefined : await getPublic(app.db, n, culture, ctx.t);
    if (!o) {
      // On the site once, not now (withdrawn, sold, refused or deleted): never a bare "not found". The
      // page says so and takes an enquiry all the same (see the POST), or thanks for one, with similar
      // properties; 410 tells search engines it is gone for good.
      if (n !== undefined && (await enquiryTaken(app.db, n))) {
        const similar = await similarPublic(app.db, n, culture, ctx.t);
        return page(reply, contact.sent ? 200 : 410, withdrawnPage(ctx, formatReferenceNumber(n), contact, similar), 'no-store');
      }
      return page(reply, 404, notFoundPage(ctx, sameAddress(req)), 'no-store');
    }
    const body = objectPage(ctx, o, contact);
    const plain = !contact.sent && !contact.values && status === 200;
    if (plain) app.publicPages.set(cached(culture, req), body, since);
    return page(reply, status, body, plain ? SHARED_CACHE : 'no-store');
  };

  const sendObject = async (req: FastifyRequest, reply: FastifyReply) => {
    const { ref } = req.params as { ref: string };
    const sent = (req.query as Record<string, unknown>).sent === '1';
    if (!sent) await countSiteView(app, req, ref);
    const key = cached(cultureOf(req), req);
    const hit = sent ? undefined : app.publicPages.get(key);
    if (typeof hit === 'string') return page(reply, 200, hit);
    await showObject(req, reply, ref, { sent });
    return reply;
  };

  // The form's address opened as a page (a reload of the answer, a shared or remembered link): the
  // property's page at its form, in the same language; never the CRM's sign-in.
  const toContactForm = async (req: FastifyRequest, reply: FastifyReply) => {
    const { ref } = req.params as { ref: string };
    const lang = (req.query as Record<string, unknown>).lang;
    const n = parsePublicRef(ref);
    const target = n === undefined ? '/listings' : `/listings/${formatReferenceNumber(n)}`;
    const q = typeof lang === 'string' && (CULTURES as readonly string[]).includes(lang) ? `?lang=${lang}` : '';
    return reply.header('Cache-Control', 'no-store').redirect(`${target}${q}${n === undefined ? '' : '#contact'}`, 303);
  };

  /**
   * An enquiry. About a published property: a lead for the office. About one withdrawn, sold or
   * deleted since its page was opened (a page kept by the browser or a cache): kept all the same,
   * the lead saying so (decision 022), and answered on a page that says the property is no longer
   * on the site. The reference number of a property never on the site (a draft), or one never
   * given, is "not found" (enquiryTaken).
   */
  const takeEnquiry = async (req: FastifyRequest, reply: FastifyReply) => {
    const culture = cultureOf(req);
    const ctx = await ctxOf(culture);
    const { t } = ctx;
    const { ref } = req.params as { ref: string };
    const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
    // A form sends a line break as CRLF; it is one character, as the page's counter counts it.
    const text = (k: string) => (typeof body[k] === 'string' ? (body[k] as string) : '').replace(/\r\n?/g, '\n').trim();
    const values = { name: text('name'), email: text('email'), phone: text('phone'), message: text('message') };
    const n = parsePublicRef(ref);
    const o = n === undefined ? undefined : await getPublic(app.db, n, culture, t);
    const notFound = () => page(reply, 404, notFoundPage(ctx, (c) => `/listings/${encodeURIComponent(ref)}?lang=${c}`), 'no-store');
    if (n === undefined || (!o && !(await enquiryTaken(app.db, n)))) return notFound();
    const refText = formatReferenceNumber(n);
    const sentTo = `/listings/${refText}?lang=${culture}&sent=1#contact`;
    // The form again, with what was typed and why it was not sent: on the property's page, or on the
    // page that says the property is no longer on the site.
    const again = async (contact: ContactState, status: number) =>
      o ? showObject(req, reply, ref, contact, status) : page(reply, status, withdrawnPage(ctx, refText, contact, await similarPublic(app.db, n, culture, t)), 'no-store');
    // A filled-in hidden field: a robot. It is answered as a person would be, and nothing is kept.
    if (text('website')) return reply.redirect(sentTo, 303);

    const errors: Record<string, string> = {};
    for (const [k, v] of Object.entries(values)) if (!isStorableText(v)) errors[k] = t('validation.badCharacters');
    if (!values.name) errors.name = t('validation.required');
    else if (values.name.length > 100) errors.name = t('validation.tooLong', { max: 100 });
    if (!values.email) errors.email = t('validation.required');
    // The rules of an account's e-mail and phone too: the enquiry becomes a client's account, which
    // must be savable as it is (a "maria..k@" or two numbers in one box could not be saved again).
    else if (values.email.length > 200 || !EMAIL.test(values.email) || !isEmailList(values.email)) errors.email = t('validation.email');
    // A number as people write one, an extension too ("2310 123456 ext 5"): the account's own rule.
    if (values.phone.length > 40 || (values.phone && !isPhoneList(values.phone))) errors.phone = t('publishing.contact.badPhone');
    if (!values.message) errors.message = t('validation.required');
    // Never cut: a longer message is refused, saying by how much, and the whole text is kept in the box.
    else if (values.message.length > ENQUIRY_MESSAGE_MAX) {
      const over = values.message.length - ENQUIRY_MESSAGE_MAX;
      errors.message = t('publishing.contact.messageTooLong', { max: ENQUIRY_MESSAGE_MAX, count: over, over: limitAsWritten(over) });
    }
    if (Object.keys(errors).length) return again({ values, errors, problem: t('publishing.contact.fix') }, 400);

    // Limits an hour (decision 022): one connection may be a whole office or family behind one
    // address; a robot that changes its e-mail is still held per property.
    const ip = `enquiry-ip:${req.ip}`;
    let wait: number | null = null;
    let problem = 'publishing.contact.tooMany';
    for (const [key, limit, said] of [
      [ip, ENQUIRY_LIMITS.perAddress, 'publishing.contact.tooMany'],
      [`enquiry-ip-ref:${req.ip}:${n}`, ENQUIRY_LIMITS.perAddressAndProperty, 'publishing.contact.tooManyProperty'],
      [`enquiry-email:${values.email.toLowerCase()}`, ENQUIRY_LIMITS.perEmail, 'publishing.contact.tooMany'],
    ] as const) {
      wait = await rateLimit(app.db, key, limit, 3600);
      if (wait !== null) {
        problem = said;
        break;
      }
    }
    // Too many: the form again with what they typed, to send later (no phone number is promised).
    if (wait !== null) {
      reply.header('Retry-After', String(wait));
      return again({ values, problem: t(problem) }, 429);
    }

    const enquiry: TEnquiry = { name: values.name, email: values.email, phone: values.phone || null, message: values.message };
    // The lead's words are the office's language (Greek).
    if (!(await createEnquiry(app, n, enquiry, culture, (k, p) => app.translator.t('el', k, p)))) return notFound();
    return reply.redirect(sentTo, 303);
  };

  // The gallery's buttons (public.script.ts): its address carries a hash of its content.
  const sendScript = async (req: FastifyRequest, reply: FastifyReply) =>
    reply
      .header('Content-Type', 'text/javascript; charset=utf-8')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', (req.query as Record<string, unknown>).v === GALLERY_SCRIPT_VERSION ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
      .send(GALLERY_SCRIPT);

  // A published photo: only the copies made on upload (no camera data in them), never the original,
  // under the copy's own name, whose extension is the format served.
  const sendPhoto = async (req: FastifyRequest, reply: FastifyReply) => {
    const { name } = req.params as { name: string };
    const notThere = () => reply.status(404).header('Content-Type', 'text/plain; charset=utf-8').send('Not found');
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(name)) return notThere();
    const photo = await publicPhoto(app.db, name);
    // The screen-size copy as JPEG ("…-web.jpg" for "…-web.webp"): the portals' feeds read JPEG only (decision 083).
    if (!photo && /\.jpg$/i.test(name)) return sendJpeg(reply, name.replace(/\.jpg$/i, '.webp'), notThere);
    if (!photo) return notThere();
    // An address of before (the original's name and ?size=, in pages, feeds and links shared then):
    // the copy's own address, for good.
    if (photo.copy === null) {
      const size = (req.query as Record<string, unknown>).size === 'thumb' ? 'thumb' : 'web';
      return reply.header('Cache-Control', 'public, max-age=86400').redirect(photoUrl(photo, size), 301);
    }
    const type = IMAGE_TYPES[/\.([a-z0-9]+)$/i.exec(photo.copy)?.[1]?.toLowerCase() ?? ''];
    if (!type) return notThere();
    const stream = await getFileStorage(app.config.dataDir).get(photo.copy);
    if (!stream) return notThere();
    return reply
      .header('Content-Type', type)
      .header('Content-Disposition', `inline; filename="${photo.copy}"`)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'public, max-age=600')
      .send(stream);
  };

  const sendJpeg = async (reply: FastifyReply, webName: string, notThere: () => FastifyReply) => {
    const photo = await publicPhoto(app.db, webName);
    if (!photo || photo.copy !== photo.web) return notThere();
    // Converted once and kept a while (a portal fetches the same photos again and again), two
    // conversions at a time: a flood of requests for the public photos cannot hold the CPU.
    let jpeg = keptJpegs.get(photo.copy);
    if (!jpeg) {
      const stream = await getFileStorage(app.config.dataDir).get(photo.copy);
      if (!stream) return notThere();
      const done = await jpegWork.run(async () => {
        const chunks: Buffer[] = [];
        for await (const c of stream) chunks.push(c as Buffer);
        const sharp = await loadSharp();
        return sharp(Buffer.concat(chunks)).flatten({ background: '#ffffff' }).jpeg({ quality: 85 }).toBuffer().catch(() => undefined);
      });
      if (!done) {
        stream.destroy();
        return reply.code(503).header('Retry-After', '5').send();
      }
      if (!done.value) return notThere();
      jpeg = done.value;
      keepJpeg(photo.copy, jpeg);
    }
    return reply
      .header('Content-Type', 'image/jpeg')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'public, max-age=600')
      .send(jpeg);
  };

  const sendFeed = async (req: FastifyRequest, reply: FastifyReply) => {
    const culture = cultureOf(req);
    const ctx = await ctxOf(culture);
    return reply
      .header('Content-Type', 'application/xml; charset=utf-8')
      .header('Cache-Control', 'public, max-age=300, s-maxage=300')
      .header('Vary', 'Accept-Language')
      .send(feedStream(app.db, ctx.baseUrl, culture, ctx.t, siteNameOf(ctx)));
  };

  // The same, as JSON, for the agency's own website or apps (no sign-in; only what the pages show).
  const apiCulture = (req: FastifyRequest, lang: TCulture | undefined) => lang ?? cultureFromHeader(req.headers['accept-language']) ?? 'el';

  // The pages are no calls of the API: left out of its document.
  const sitePage = { access: 'public', hide: true } as const;
  registerCalls(
    app,
    PUBLIC_SITE.calls,
    PUBLIC_SITE_API,
    {
      listPage: { ...sitePage, handler: sendList },
      termsPage: { ...sitePage, handler: sendTerms },
      objectPage: { ...sitePage, handler: sendObject },
      contactPage: { ...sitePage, handler: toContactForm },
      contact: { ...sitePage, handler: takeEnquiry },
      script: { ...sitePage, handler: sendScript },
      photo: { ...sitePage, handler: sendPhoto },
      feed: { ...sitePage, handler: sendFeed },
      listings: {
        access: 'public',
        noBearer: true,
        handler: async (req, reply) => {
          const q = req.query;
          const culture = apiCulture(req, q.lang);
          reply.header('Cache-Control', SHARED_CACHE).header('Vary', 'Accept-Language');
          // As the pages: an answer read before a change and finished after it is not kept.
          return app.publicPages.keep(`api ${culture} ${req.url}`, async (): Promise<TPublicListDto> => {
            const t = (key: string, params?: Record<string, string | number>) => app.translator.t(culture, key, params);
            const { items, total } = await listPublic(
              app.db,
              { service: q.service, kind: q.kind, place: q.place, priceMin: q.priceMin, priceMax: q.priceMax, bedrooms: q.bedrooms, sort: q.sort, page: q.currentPage, perPage: q.perPage },
              culture,
              t,
            );
            return { items: items.map((o) => toPublicDto(o, culture)), totalRows: total };
          });
        },
      },
      listing: {
        access: 'public',
        noBearer: true,
        handler: async (req, reply) => {
          const culture = apiCulture(req, req.query.lang);
          const answer = await app.publicPages.keep(`api ${culture} ${req.url}`, async (): Promise<TPublicObjectDto> => {
            const o = await getPublic(app.db, Number(req.params.ref), culture, (key, params) => app.translator.t(culture, key, params));
            if (!o) {
              // On the site once, not now: 410, as the page answers, for an app to say so rather than "not found".
              if (await enquiryTaken(app.db, Number(req.params.ref))) throw new AppError(410, 'publishing.withdrawn.title', { ref: formatReferenceNumber(Number(req.params.ref)) });
              throw notFound('publishing.notFound.title');
            }
            return toPublicDto(o, culture);
          });
          // Only a found property's answer is kept by shared caches.
          reply.header('Cache-Control', SHARED_CACHE).header('Vary', 'Accept-Language');
          return answer;
        },
      },
    },
    { tags: ['public'] },
  );
}
