import type { TProblem } from '@crm/contract';
import { SESSION, pathOf, type AnswerOf, type Call } from '@crm/contract/resources';
import { ApiError, call, notOurAnswer } from './api.ts';
import { clearBanner } from './banner.ts';
import { currentCulture } from './i18n.ts';
import { sessionStore } from './session.ts';

/**
 * POSTs a multipart form with upload progress. fetch cannot report an upload's progress, so this is
 * XMLHttpRequest, sent as the api client sends: the bearer token, Accept-Language, the change's
 * Idempotency-Key (lib/change-key.ts), the same ApiError for a refusal or a lost connection, and
 * a 401 handed to the api client's usual path (clear the session, go to /login).
 */
let inFlight = 0;
/** Uploads on their way from this tab: a record they are for is not empty, whatever its editor says. */
export const uploadsInFlight = () => inFlight;
/**
 * Counts `work` (an upload and then attaching its files to their record) as one upload in flight
 * from its start to its end: between the files' upload and their attach there is no moment in which
 * the record looks untouched.
 */
export async function whileUploading<T>(work: () => Promise<T>): Promise<T> {
  inFlight++;
  try {
    return await work();
  } finally {
    inFlight--;
  }
}

/** Sends `body` as the form of a call that takes one (an upload, a document with its file), its answer typed by the contract. */
export function postWithProgress<C extends Call>(c: C, body: FormData, onProgress: (percent: number) => void, changeKey?: string): Promise<AnswerOf<C>> {
  inFlight++;
  return new Promise<AnswerOf<C>>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(c.method, pathOf(c));
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept-Language', currentCulture());
    const token = sessionStore.get()?.token;
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    if (changeKey) xhr.setRequestHeader('Idempotency-Key', changeKey);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(Math.min(100, Math.round((e.loaded / e.total) * 100)));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        clearBanner();
        resolve(JSON.parse(xhr.responseText) as AnswerOf<C>);
        return;
      }
      let problem: TProblem;
      try {
        problem = JSON.parse(xhr.responseText) as TProblem;
      } catch {
        problem = notOurAnswer(xhr.status);
      }
      if (xhr.status === 401) void call(SESSION.calls.me, {}).catch(() => {});
      reject(new ApiError(xhr.status, problem));
    };
    xhr.onerror = () => reject(new ApiError(0, { status: 0, title: '', code: 'errors.network' }));
    xhr.send(body);
  }).finally(() => {
    inFlight--;
  });
}
