/** Where a key is, in a line: shared with the viewings (lib/key-state.ts). */
export { keyStateLine } from '../../lib/key-state.ts';
