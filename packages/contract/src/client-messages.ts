import { z } from 'zod';
import { ZIdParam, ZIdString } from './common.ts';
import type { CallSchemas } from './call.ts';

/** GET /api/account/:id/messageText: from a viewing of theirs, its confirmation; else a greeting. */
export const ZClientMessageQuery = z.object({ viewingId: ZIdString.optional() });
/** The text to send the client, in the client's language (en, el or ru), with its greeting's grammar. */
export const ZClientMessage = z.object({ culture: z.enum(['en', 'el', 'ru']), text: z.string() });
export type TClientMessage = z.infer<typeof ZClientMessage>;

/** A message to a client by Viber, WhatsApp or SMS (issue 46): its text (the sending is logged as an activity). */
export const CLIENT_MESSAGE_API = {
  text: { params: ZIdParam, query: ZClientMessageQuery, answer: ZClientMessage },
} satisfies Record<string, CallSchemas>;
