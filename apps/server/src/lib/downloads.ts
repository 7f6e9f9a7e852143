import type { FastifyInstance } from 'fastify';
import { CULTURES, type TCulture } from '@crm/contract';

type T = (key: string, params?: Record<string, string | number>) => string;

/** A text in each of the interface's languages: what the log shows in the reader's own. */
export type Texts = Record<TCulture, string>;

/** A list's file as made: the file, how many rows it holds, and its filter as its row 2 says it, in every language. */
export type Download = { file: Buffer; rows: number; filter?: Texts };

/**
 * A text written in each language by the same words the file uses (its filter line): the log keeps
 * all three, so whoever reads the log reads it in their own language, not in the downloader's.
 */
export async function inEveryLanguage(app: FastifyInstance, text: (t: T, culture: TCulture) => string | Promise<string>): Promise<Texts> {
  const out = {} as Texts;
  for (const culture of CULTURES) out[culture] = await text((key, params) => app.translator.t(culture, key, params), culture);
  return out;
}
