/**
 * What Merge sends as the kept account: its id and version, and only the values taken from the
 * duplicate that differ from the kept account's own. The kept account's other values stay as
 * stored: one saved before a rule existed (an old tax number, an e-mail typed as "at the office")
 * does not stop the merge, and nothing is written back that nobody chose.
 */
export function mergeBody(kept: { id: number; version: number } & Record<string, unknown>, duplicate: Record<string, unknown>, taken: readonly string[]): Record<string, unknown> {
  const body: Record<string, unknown> = { id: kept.id, version: kept.version };
  for (const f of taken) if (JSON.stringify(duplicate[f] ?? null) !== JSON.stringify(kept[f] ?? null)) body[f] = duplicate[f];
  return body;
}
