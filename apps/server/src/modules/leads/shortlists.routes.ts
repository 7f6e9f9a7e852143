import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParam, ZShortlistAnswerBody, ZShortlistList, ZShortlistPhotoParams, ZShortlistPublic, ZShortlistSend, ZShortlistSent, ZShortlistTokenParam } from '@crm/contract';
import { STAFF } from '../../plugins/auth.ts';
import { notFound } from '../../lib/errors.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { answerShortlist, leadShortlists, sendShortlist, shortlistPhoto, viewShortlist } from './shortlists.service.ts';

const IMAGE_TYPES: Record<string, string> = { webp: 'image/webp', jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', avif: 'image/avif' };

/**
 * Shortlists (decision 049): staff who may edit a lead send its client some of its offered objects;
 * the client opens /Shortlist/{token} without a sign-in (the token is the key) and answers per object.
 */
export const shortlistsRoutes = fp(
  async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    const tags = ['leads'];

    app.post(
      '/api/lead/:id/shortlist',
      { config: { access: STAFF }, schema: { tags, params: ZIdParam, body: ZShortlistSend, response: { 200: ZShortlistSent } } },
      async (req) => sendShortlist(app, { user: req.user!, actor: req.actor }, req.params.id, req.body, req.culture),
    );
    app.get(
      '/api/lead/:id/shortlists',
      { config: { access: STAFF }, schema: { tags, params: ZIdParam, response: { 200: ZShortlistList } } },
      async (req) => leadShortlists(app, req.params.id, req.culture),
    );

    // The client's page: no sign-in; the token opens that one shortlist.
    app.get(
      '/api/shortlist/:token',
      { config: { access: 'public' }, schema: { tags, params: ZShortlistTokenParam, response: { 200: ZShortlistPublic } } },
      async (req, reply) => {
        reply.header('Cache-Control', 'private, no-store').header('Referrer-Policy', 'no-referrer');
        return viewShortlist(app, req.params.token, req.culture);
      },
    );
    app.post(
      '/api/shortlist/:token/answer',
      { config: { access: 'public' }, schema: { tags, params: ZShortlistTokenParam, body: ZShortlistAnswerBody, response: { 200: ZShortlistPublic } } },
      async (req, reply) => {
        reply.header('Cache-Control', 'private, no-store');
        return answerShortlist(app, req, req.params.token, req.body.objectId, req.body.answer);
      },
    );
    app.get(
      '/api/shortlist/:token/photo/:objectId',
      { config: { access: 'public' }, schema: { tags, params: ZShortlistPhotoParams } },
      async (req, reply) => {
        const name = await shortlistPhoto(app, req.params.token, req.params.objectId);
        const type = IMAGE_TYPES[/\.([a-z0-9]+)$/i.exec(name ?? '')?.[1]?.toLowerCase() ?? ''];
        const stream = name && type ? await getFileStorage(app.config.dataDir).get(name) : undefined;
        if (!name || !type || !stream) throw notFound('shortlist.noPhoto');
        return reply
          .header('Content-Type', type)
          .header('Content-Disposition', `inline; filename="${name}"`)
          .header('X-Content-Type-Options', 'nosniff')
          .header('Referrer-Policy', 'no-referrer')
          .header('Cache-Control', 'private, max-age=600')
          .send(stream);
      },
    );
  },
  { name: 'shortlists', dependencies: ['leads'] },
);
