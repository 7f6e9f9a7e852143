const TEN_YEARS = 10 * 365 * 24 * 3600;

let jar: string | undefined;
/**
 * document.cookie asks the browser's cookie store on every read (0.17 ms on a desktop core, more on a
 * phone's), and a first screen read it hundreds of times (the language of each call before the texts
 * have started, the lists' cookies): read once per task, forgotten when the task's microtasks run
 * or a cookie is written.
 */
function cookieString(): string {
  if (jar === undefined) {
    jar = document.cookie;
    queueMicrotask(() => {
      jar = undefined;
    });
  }
  return jar;
}

export function getCookie(name: string): string | undefined {
  const prefix = `${encodeURIComponent(name)}=`;
  for (const part of cookieString().split('; ')) {
    if (part.startsWith(prefix)) return decodeURIComponent(part.slice(prefix.length));
  }
  return undefined;
}

/** Cookies of lists and filters live ten years (spec). */
export function setCookie(name: string, value: string, maxAgeSeconds = TEN_YEARS) {
  jar = undefined;
  document.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; path=/; max-age=${maxAgeSeconds}; SameSite=Lax`;
}

export const deleteCookie = (name: string) => setCookie(name, '', 0);

/** The names of the cookies this page can read. */
export const cookieNames = (): string[] =>
  cookieString()
    .split('; ')
    .filter(Boolean)
    .map((part) => {
      const i = part.indexOf('=');
      return decodeURIComponent(i < 0 ? part : part.slice(0, i));
    });

export function getJsonCookie<T>(name: string): T | undefined {
  const raw = getCookie(name);
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}

export const setJsonCookie = (name: string, value: unknown) => setCookie(name, JSON.stringify(value));
