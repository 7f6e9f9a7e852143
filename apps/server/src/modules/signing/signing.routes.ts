import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SIGN_API, SIGN_IMAGE_MAX_CHARS, ZSignToken } from '@crm/contract';
import { SIGN_REQUEST } from '@crm/contract/resources';
import { STAFF } from '../../plugins/auth.ts';
import { registerCalls } from '../../lib/calls.ts';
import { AppError } from '../../lib/errors.ts';
import { guardSecretLink } from '../../lib/throttle.ts';
import { sendPdf } from '../files/files.service.ts';
import type { AppPage, AppPageRoute } from '../../plugins/web.ts';
import { listRequests, publicView, requestByToken, revokeRequest, sendForSignature } from './sign-requests.service.ts';
import { signDocument, signPdf } from './sign-document.ts';

/** What the signer's page and its calls answer with: never cached, never indexed, the token never passed on in a Referer. */
const PRIVATE = { 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex, nofollow' };

/**
 * Documents sent for signature by link (decision 086): staff send, list and revoke; the signer's
 * page (/Sign/{token}, no sign-in) reads its request and PDF and signs.
 */
export const signingRoutes = fp(
  async (app: FastifyInstance) => {
    registerCalls(
      app,
      SIGN_REQUEST.calls,
      SIGN_API,
      {
        send: { access: STAFF, handler: async (req) => sendForSignature(app, { user: req.user!, actor: req.actor }, req.body, req.culture) },
        list: { access: STAFF, handler: async (req) => listRequests(app, req.query.source, req.query.id, req.query.dealId) },
        revoke: { access: STAFF, handler: async (req) => revokeRequest(app, { user: req.user!, actor: req.actor }, req.body.id, req.body.version) },
        view: {
          access: 'public',
          noBearer: true,
          handler: async (req, reply) => {
            reply.headers(PRIVATE);
            return guardSecretLink(app.db, 'signlink', req.ip, async () => publicView(app, await requestByToken(app.db, req.params.token), req.culture));
          },
        },
        pdf: {
          access: 'public',
          noBearer: true,
          file: 'The document to sign, or once signed the signed copy (PDF)',
          handler: async (req, reply) => {
            reply.headers(PRIVATE);
            const { name, pdf } = await guardSecretLink(app.db, 'signlink', req.ip, () => signPdf(app, req.params.token));
            return sendPdf(reply.headers(PRIVATE), pdf, name, 'inline');
          },
        },
        sign: {
          access: 'public',
          noBearer: true,
          // The drawn signature's data URL and the name, nothing more.
          bodyLimit: SIGN_IMAGE_MAX_CHARS + 4096,
          handler: async (req, reply) => {
            reply.headers(PRIVATE);
            return guardSecretLink(app.db, 'signlink', req.ip, () => signDocument(app, req, req.params.token, req.body));
          },
        },
      },
      { tags: ['documents'] },
    );
  },
  { name: 'signing', dependencies: ['doc-templates'] },
);

/** The signer's page as the server sends it: 404 for an unknown link; never indexed, never cached. */
export const signAppPage = (app: FastifyInstance): AppPageRoute => ({
  path: SIGN_REQUEST.screens.page,
  page: async (req) => {
    const token = (req.params as { token: string }).token;
    const robots = { name: 'robots', content: 'noindex, nofollow' };
    let status = 200;
    let lang: string | undefined;
    if (!ZSignToken.safeParse(token).success) status = 404;
    else {
      // Counted with the link's calls: the page's 200 or 404 must not be a way round their limit on guesses.
      try {
        lang = (await guardSecretLink(app.db, 'signlink', req.ip, () => requestByToken(app.db, token))).culture;
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        status = e.status === 429 ? 429 : 404;
      }
    }
    return { status, ...(lang ? { lang } : {}), meta: [robots], headers: PRIVATE } satisfies AppPage;
  },
});
