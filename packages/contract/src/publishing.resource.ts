import { calls } from './call.ts';
import type { PUBLIC_SITE_API, PUBLISHING_API } from './publishing.ts';

/** Publishing: an object's state on the agency's website (decision 057). */
export const PUBLISHING = {
  calls: calls<typeof PUBLISHING_API>({
    state: 'GET /api/object/publishState/:id',
  }),
  screens: {},
} as const;

/**
 * The agency's public site, no sign-in (decision 022): its pages (made on the server, outside the
 * app), the photos, the portal feed, and the published objects as JSON (decision 057).
 */
export const PUBLIC_SITE = {
  calls: calls<typeof PUBLIC_SITE_API>({
    listPage: 'GET /listings',
    termsPage: 'GET /listings/terms',
    objectPage: 'GET /listings/:ref',
    contactPage: 'GET /listings/:ref/contact',
    contact: 'POST /listings/:ref/contact',
    script: 'GET /listings/gallery.js',
    photo: 'GET /listings/photo/:name',
    feed: 'GET /feed/listings.xml',
    listings: 'GET /api/public/listings',
    listing: 'GET /api/public/listings/:ref',
  }),
  screens: {},
} as const;
