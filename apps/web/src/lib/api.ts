import i18n from 'i18next';
import type { TProblem } from '@crm/contract';
import { pathOf, type AnswerOf, type Call, type RequestOf } from '@crm/contract/resources';
import { sessionStore, setSession } from './session.ts';
import { clearBanner } from './banner.ts';
import { currentCulture } from './i18n.ts';

/** A failed call: the HTTP status and the server's problem details. */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly problem: TProblem & { UserManager?: unknown },
  ) {
    super(problem.detail || problem.title);
  }
  /** Field errors (field -> messages), for showing under inputs. */
  get fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.problem.errors ?? {})) out[k] = v.join(' ');
    return out;
  }
}

let onUnauthorized: () => void = () => {};
/** The shell registers what a 401 does: clear the session and go to /login. */
export const setUnauthorizedHandler = (fn: () => void) => {
  onUnauthorized = fn;
};

type Options = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  signal?: AbortSignal;
  /**
   * For work the user did not start with a click (polls, auto-saves): a success does not clear the
   * banner, which may be telling what the last save found (someone else's change kept).
   */
  background?: boolean;
  /** A 401 is the caller's business (the sign-in form). */
  handle401?: boolean;
  /** Answer as a Blob (downloads). */
  blob?: boolean;
  /** The change's Idempotency-Key (lib/change-key.ts): sent again, it is not carried out twice. */
  changeKey?: string;
};

/**
 * Changes are sent with `keepalive` when they are small, so a save on its way when the user reloads
 * or leaves the page still reaches the server (the browser would otherwise cancel it). Browsers
 * allow 64 KiB of such bodies in flight at once; we keep our own count below that and send
 * anything beyond it as a plain request.
 */
const KEEPALIVE_BUDGET = 48 * 1024;
let keepaliveBytes = 0;

export async function api<T>(path: string, opts: Options = {}): Promise<T> {
  const method = opts.method ?? (opts.body !== undefined ? 'POST' : 'GET');
  const url = new URL(path, window.location.origin);
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { 'Accept-Language': currentCulture() };
  const token = sessionStore.get()?.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (opts.changeKey) headers['Idempotency-Key'] = opts.changeKey;
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const size = typeof body === 'string' ? body.length * 3 : 0;
  const keepalive = method !== 'GET' && (body === undefined || typeof body === 'string') && keepaliveBytes + size <= KEEPALIVE_BUDGET;
  if (keepalive) keepaliveBytes += size;
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body, signal: opts.signal, credentials: 'include', keepalive });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(0, { status: 0, title: '', code: 'errors.network' });
  } finally {
    if (keepalive) keepaliveBytes -= size;
  }
  if (!res.ok) {
    let problem: TProblem;
    try {
      problem = (await res.json()) as TProblem;
    } catch {
      problem = notOurAnswer(res.status);
    }
    if (res.status === 401 && !opts.handle401 && token) {
      setSession(null, { ended: true });
      onUnauthorized();
    }
    throw new ApiError(res.status, problem);
  }
  if (!opts.background && method !== 'GET') clearBanner();
  if (opts.blob) return (await res.blob()) as T;
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * An error answer that is not ours (a proxy's page for 413, 502, 504): said in the reader's words
 * by its status, never the proxy's English status text ("Bad Gateway").
 */
export function notOurAnswer(status: number): TProblem {
  const code = status === 413 ? 'errors.tooLarge' : status === 429 ? 'errors.tooManyRequests' : status === 502 || status === 503 || status === 504 ? 'errors.network' : status >= 500 ? 'errors.internal' : 'errors.badRequest';
  return { status, title: i18n.t(code), code };
}

type CallOptions = Omit<Options, 'method' | 'body' | 'query' | 'blob'> & { form?: FormData };

/**
 * One of the API's calls, by its resource's route table (decision 057): its method and path from the
 * table, its params, query and body and its answer typed by the contract's schemas. No path is
 * written by hand. With `blob`, the answer is the file the call answers (an export, a download).
 */
export function call<C extends Call>(c: C, request: RequestOf<C>, opts: CallOptions & { blob: true }): Promise<Blob>;
export function call<C extends Call>(c: C, request: RequestOf<C>, opts?: CallOptions): Promise<AnswerOf<C>>;
export function call<C extends Call>(c: C, request: RequestOf<C>, opts: CallOptions & { blob?: boolean } = {}): Promise<unknown> {
  const r = request as { params?: Record<string, unknown>; query?: Options['query']; body?: unknown };
  // A call whose body is a form (a transaction with its files) sends it as form-data.
  const { form, ...rest } = opts;
  const body = form ?? r.body;
  return api<AnswerOf<C>>(pathOf(c, r.params), { ...rest, method: c.method, ...(body !== undefined ? { body } : {}), ...(r.query ? { query: r.query } : {}) });
}
