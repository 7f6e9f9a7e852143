import type { Tx } from '../../db/client.ts';
import type { Actor } from '../../lib/audit.ts';

/** The action log's entity of a property. */
export const OBJECT_LOG_ENTITY = 'Object';

/** A saved change of an object, told to the listeners (e.g. publishing) inside its transaction. */
export type ObjectChange = { id: number; before: Record<string, unknown>; after: Record<string, unknown>; changed: string[]; actor: Actor };
export type ObjectChangeListener = (tx: Tx, change: ObjectChange) => Promise<void>;
