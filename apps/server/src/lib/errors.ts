/** An error answered to the caller as problem details; `code` is a localization key. */
export class AppError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    public readonly params: Record<string, string | number> = {},
    public readonly fieldErrors?: Record<string, { code: string; params?: Record<string, string | number> }[]>,
    public readonly current?: unknown,
  ) {
    super(code);
  }
}

export const badRequest = (code: string, params?: Record<string, string | number>) => new AppError(400, code, params);
export const fieldError = (field: string, code: string, params?: Record<string, string | number>) =>
  new AppError(400, 'errors.validation', {}, { [field]: [{ code, params }] });
/**
 * A range typed out of order ("from" over "to"), said at the field just changed and in its own
 * terms: under "to", that "to" cannot be below "from"; under "from", that "from" cannot be over "to".
 */
export const orderError = (kind: 'budget' | 'date' | 'area', field: string, onHigh: boolean) =>
  fieldError(field, { budget: onHigh ? 'fields.budgetOrderTo' : 'fields.budgetOrder', date: onHigh ? 'fields.dateOrderEnd' : 'fields.dateOrder', area: onHigh ? 'leads.areaOrderTo' : 'leads.areaOrder' }[kind]);
export const notFound = (code = 'errors.notFound') => new AppError(404, code);
export const conflict = (current: unknown) => new AppError(409, 'errors.conflict', {}, undefined, current);
export const accessDenied = () => new AppError(403, 'errors.accessDenied');
export const unauthorized = () => new AppError(401, 'errors.unauthorized');

/**
 * The version a change of a record was based on. Without one the change is refused, 428
 * Precondition Required (RFC 6585), rather than written over whatever is there now: two people
 * saving the same record would otherwise each silently undo the other (decision 002).
 */
export function requireVersion(version: number | null | undefined): number {
  if (version === undefined || version === null) throw new AppError(428, 'errors.versionRequired');
  return version;
}
