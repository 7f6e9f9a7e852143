import { calls } from './call.ts';
import type { CLIENT_MESSAGE_API } from './client-messages.ts';

/** A ready text to a client for Viber, WhatsApp or SMS, in the client's language (issue 46). */
export const CLIENT_MESSAGE = {
  calls: calls<typeof CLIENT_MESSAGE_API>({
    text: 'GET /api/account/:id/messageText',
  }),
  screens: {},
} as const;
