/**
 * The sign-in page's return address (`?returnUrl=`), as the way on after signing in: only a path of
 * this site is taken. Anything that could lead elsewhere is ignored (an open redirect would let a
 * link to our sign-in page send the reader, signed in, to another site): an address with a scheme
 * (`https:`, `javascript:`), one starting with `//` (another host), a backslash (read as `/` by
 * browsers), and any control character or space (a tab or line break is dropped from an address, so
 * `/<tab>/evil.example` is `//evil.example`).
 */
export function returnPath(value: string | null | undefined, origin: string): string | null {
  if (!value || value[0] !== '/' || value[1] === '/') return null;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u0020\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin) return null;
  return value;
}

/**
 * A return path the web app's router cannot show (the API's own addresses, such as a file's link),
 * so the browser opens it itself. Compared without case, as the service worker does.
 */
export const isApiPath = (path: string) => /^\/api(?:[/?#]|$)/i.test(path);
