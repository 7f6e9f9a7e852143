import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SHORTLIST_API } from '@crm/contract';
import { SHORTLIST } from '@crm/contract/resources';
import { STAFF } from '../../plugins/auth.ts';
import { registerCalls } from '../../lib/calls.ts';
import { notFound } from '../../lib/errors.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import type { AppPage, AppPageRoute } from '../../plugins/web.ts';
import { answerShortlist, leadShortlists, sendShortlist, sendShortlistAgain, shortlistPhoto, shortlistPreview, viewShortlist, withdrawShortlist } from './shortlists.service.ts';

const IMAGE_TYPES: Record<string, string> = { webp: 'image/webp', jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', avif: 'image/avif' };

/**
 * Shortlists (decision 049): staff who may edit a lead send its client some of its offered objects;
 * the client opens /Shortlist/{token} without a sign-in (the token is the key) and answers per object.
 */
export const shortlistsRoutes = fp(
  async (root: FastifyInstance) => {
    const app = root;

    registerCalls(
      app,
      SHORTLIST.calls,
      SHORTLIST_API,
      {
        send: { access: STAFF, handler: async (req) => sendShortlist(app, { user: req.user!, actor: req.actor }, req.params.id, req.body, req.culture) },
        list: { access: STAFF, handler: async (req) => leadShortlists(app, req.params.id, req.culture) },
        again: { access: STAFF, handler: async (req) => sendShortlistAgain(app, { user: req.user!, actor: req.actor }, req.params.id, req.params.shortlistId, req.culture) },
        withdraw: { access: STAFF, handler: async (req) => withdrawShortlist(app, { user: req.user!, actor: req.actor }, req.params.id, req.params.shortlistId, req.culture) },

        // The client's page: no sign-in; the token opens that one shortlist.
        view: {
          access: 'public',
          handler: async (req, reply) => {
            reply.header('Cache-Control', 'private, no-store').header('Referrer-Policy', 'no-referrer');
            return viewShortlist(app, req.params.token, req.culture);
          },
        },
        answer: {
          access: 'public',
          handler: async (req, reply) => {
            reply.header('Cache-Control', 'private, no-store');
            return answerShortlist(app, req, req.params.token, req.body.objectId, req.body.answer);
          },
        },
        photo: {
          access: 'public',
          handler: async (req, reply) => {
            const name = await shortlistPhoto(app, req.params.token, req.params.objectId);
            const ext = /\.([a-z0-9]+)$/i.exec(name ?? '')?.[1]?.toLowerCase() ?? '';
            const type = IMAGE_TYPES[ext];
            const stream = name && type ? await getFileStorage(app.config.dataDir).get(name) : undefined;
            if (!name || !type || !stream) throw notFound('shortlist.noPhoto');
            return reply
              .header('Content-Type', type)
              // Named after the property, not the stored file (whose name is the office's own).
              .header('Content-Disposition', `inline; filename="photo-${req.params.objectId}.${ext}"`)
              .header('X-Content-Type-Options', 'nosniff')
              .header('Referrer-Policy', 'no-referrer')
              .header('Cache-Control', 'private, max-age=600')
              .send(stream);
          },
        },
      },
      { tags: ['leads'] },
    );
  },
  { name: 'shortlists', dependencies: ['leads'] },
);

/**
 * The client's page as the server sends it (/Shortlist/{token}): for a working link, the preview a
 * chat shows (Open Graph, Twitter card) in the shortlist's language; for an unknown link a 404, for
 * an expired or withdrawn one a 410, with the app's own title. Never indexed, never cached, and the
 * token not passed on in a Referer.
 */
export const shortlistAppPage = (app: FastifyInstance): AppPageRoute => ({
  path: SHORTLIST.screens.page,
  page: async (req) => {
    const preview = await shortlistPreview(app, (req.params as { token: string }).token);
    const headers = { 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex, nofollow' };
    const robots = { name: 'robots', content: 'noindex, nofollow' };
    if (preview.status !== 200) return { status: preview.status, meta: [robots], headers } satisfies AppPage;
    const { title, description, image, siteName, language } = preview;
    return {
      status: 200,
      lang: language,
      title,
      headers,
      meta: [
        robots,
        { name: 'description', content: description },
        { property: 'og:type', content: 'website' },
        { property: 'og:site_name', content: siteName },
        { property: 'og:title', content: title },
        { property: 'og:description', content: description },
        ...(image ? [{ property: 'og:image', content: image }] : []),
        { name: 'twitter:card', content: image ? 'summary_large_image' : 'summary' },
        { name: 'twitter:title', content: title },
        { name: 'twitter:description', content: description },
        ...(image ? [{ name: 'twitter:image', content: image }] : []),
      ],
    };
  },
});
