/**
 * Saves a fetched answer under its own name (`<a download>`): an export fetched with the session's
 * token, so the page can show it is busy and say what went wrong. Files already stored open at their
 * own address instead (components/file-links.tsx).
 */
export function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * A link's attributes for a file at its own address (opened by the session's file cookie): what the
 * browser shows itself (pictures, PDF) in a new tab, anything else downloaded under its name.
 */
export const fileAnchor = (href: string, name: string, inBrowser: boolean) => (inBrowser ? { href, target: '_blank', rel: 'noopener' } : { href, download: name });
