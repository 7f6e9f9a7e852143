/**
 * Someone else saved a record first (409): the form opens on their version with what only this
 * user changed carried into it; where both changed a field, the other user's value is shown and
 * the field named. Nothing typed is lost to a second person's save.
 *
 * The forms are keyed by the record's version, so a new form mounts on the other version: the
 * merged form is handed to it here, once (`carryForm`, then `takeCarriedForm` at mount).
 */
type Flat = Record<string, unknown>;

/** Row keys made for React lists are not values: two forms of the same record compare equal without them. */
const withoutRowKeys = (k: string, v: unknown) => (k === 'key' ? undefined : v);
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null, withoutRowKeys) === JSON.stringify(b ?? null, withoutRowKeys);
/** Two forms hold the same values (their rows' React keys aside): what a leave guard asks about. */
export const sameForm = same;

/**
 * `base` is the form as it was loaded, `mine` as it is now, `theirs` the other version's. Answers
 * their form with mine where only I changed a field, what I changed, and the fields where the
 * other user's value was kept over mine.
 */
export function mergeOnConflict<F extends Flat>(base: F, mine: F, theirs: F): { next: F; changed: string[]; lost: string[] } {
  const changed = Object.keys(mine).filter((k) => !same(mine[k], base[k]));
  const lost = changed.filter((k) => !same(theirs[k], base[k]) && !same(theirs[k], mine[k]));
  const next: Flat = { ...theirs };
  for (const k of changed) if (!lost.includes(k)) next[k] = mine[k];
  return { next: next as F, changed, lost };
}

const carried = new Map<string, unknown>();

/** Hands a merged form to the form that mounts next for this record. */
export function carryForm<F>(record: string, form: F): void {
  carried.set(record, form);
}

/** The form handed over for this record, once. */
export function takeCarriedForm<F>(record: string): F | undefined {
  const f = carried.get(record) as F | undefined;
  carried.delete(record);
  return f;
}

/**
 * The banner after a merge: that their version was loaded and what this user changed kept, then the
 * fields where their value won (by `label`). When nothing of mine survived, the server's own words.
 */
export function conflictMessage(t: (key: string, params?: Record<string, unknown>) => string, serverTitle: string | undefined, m: { changed: string[]; lost: string[] }, label: (field: string) => string): string {
  const kept = m.lost.length ? ` ${t('common.conflictKept', { fields: [...new Set(m.lost.map(label))].join(', ') })}` : '';
  return (m.changed.length > m.lost.length ? t('common.conflictMerged') : serverTitle || t('errors.conflict')) + kept;
}

/**
 * An auto-saved record's 409 (its save was based on an older version). Of the fields this user has
 * typed (`typed` differs from `base`):
 * - `mine`: the other version left them alone, so they are put back and saved on it;
 * - `lost`: the other version changed them to something else, so theirs is kept and named.
 * `foreign` says whether the other version holds anything that is not this user's own: when it does
 * not, there is nothing to tell. That is the case of a save whose answer was lost on the way back
 * (`sent`: what such saves carried), which comes back as a 409 of this user's own version.
 */
export function splitOnConflict(
  keys: readonly string[],
  base: Flat,
  typed: Flat,
  theirs: Flat,
  sent: Flat = {},
  eq: (a: unknown, b: unknown, key: string) => boolean = same,
): { mine: string[]; lost: string[]; foreign: boolean } {
  const theyChanged = (k: string) => !eq(theirs[k], base[k], k) && !(k in sent && eq(theirs[k], sent[k], k));
  const differsFromTyped = (k: string) => !eq(theirs[k], typed[k], k);
  const typedKeys = keys.filter((k) => !eq(typed[k], base[k], k));
  return {
    mine: typedKeys.filter((k) => !theyChanged(k) && differsFromTyped(k)),
    lost: typedKeys.filter((k) => theyChanged(k) && differsFromTyped(k)),
    foreign: keys.some((k) => theyChanged(k) && differsFromTyped(k)),
  };
}

/**
 * A field's label with the value this user had typed ("Title (yours: “Sunny flat”)"): text and
 * numbers only, up to 200 characters.
 */
export function withYours(t: (key: string, params?: Record<string, unknown>) => string, label: string, value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number') return label;
  const text = String(value).trim();
  if (!text) return label;
  return `${label} (${t('common.conflictYours', { value: text.length > 200 ? `${text.slice(0, 200)}…` : text })})`;
}

/**
 * A list of rows (a viewing's properties with their results and comments) merged row by row and
 * field by field, rather than as one value: rows this user added or removed are added or removed on
 * their version, a field only this user changed takes this user's value, and where both changed a
 * field theirs stays and the row is named in `lost` (by `name`). `changed` says whether anything of
 * this user's is in the answer.
 */
export function mergeRowsOnConflict<R extends Flat>(
  base: R[],
  mine: R[],
  theirs: R[],
  keyOf: (r: R) => string | number,
  name: (r: R) => string,
): { rows: R[]; changed: boolean; lost: string[] } {
  const byKey = (rows: R[]) => new Map(rows.map((r) => [keyOf(r), r]));
  const b = byKey(base);
  const m = byKey(mine);
  const lost: string[] = [];
  let changed = false;
  const rows: R[] = [];
  for (const their of theirs) {
    const k = keyOf(their);
    const was = b.get(k);
    const now = m.get(k);
    if (was && !now) {
      changed = true; // removed by this user
      continue;
    }
    if (!was || !now) {
      rows.push(their);
      continue;
    }
    const next: Flat = { ...their };
    for (const f of Object.keys(now)) {
      if (same(now[f], was[f])) continue;
      if (same(their[f], was[f]) || same(their[f], now[f])) {
        next[f] = now[f];
        changed = true;
      } else if (!lost.includes(name(now))) lost.push(name(now));
    }
    rows.push(next as R);
  }
  const there = new Set(theirs.map(keyOf));
  for (const r of mine) {
    if (!b.has(keyOf(r)) && !there.has(keyOf(r))) {
      rows.push(r); // added by this user
      changed = true;
    }
  }
  return { rows, changed, lost };
}
