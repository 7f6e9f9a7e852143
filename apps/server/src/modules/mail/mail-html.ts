import sanitizeHtml from 'sanitize-html';

/**
 * A received mail's HTML as the CRM shows it (decision 078): no script, style, form, frame or
 * object; no event handlers or inline styles (CSS can reach out); links only to http(s) and mailto,
 * opened apart; pictures only those carried by the mail itself (data: addresses, mailparser puts
 * the cid: ones there). A remote picture (a tracking pixel, a logo on a server) loses its address:
 * it is kept as data-blocked-src and counted, shown only when the reader asks.
 */
export function sanitizeMailHtml(html: string): { html: string; remoteImages: number } {
  let remoteImages = 0;
  const clean = sanitizeHtml(html, {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'font', 'center', 'u', 's', 'small', 'big'],
    disallowedTagsMode: 'discard',
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'head', 'template'],
    allowedAttributes: {
      a: ['href', 'name', 'title', 'target', 'rel'],
      img: ['src', 'alt', 'title', 'width', 'height', 'data-blocked-src'],
      td: ['colspan', 'rowspan', 'align', 'valign', 'width'],
      th: ['colspan', 'rowspan', 'align', 'valign', 'width'],
      table: ['width', 'border', 'cellpadding', 'cellspacing', 'align'],
      font: ['color', 'size', 'face'],
      '*': ['dir', 'lang'],
    },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['data'] },
    allowProtocolRelative: false,
    transformTags: {
      a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer nofollow' } }),
      img: (tagName, attribs) => {
        const src = attribs.src ?? '';
        if (/^data:image\/(png|jpe?g|gif|webp);/i.test(src)) return { tagName, attribs };
        const { src: _remote, ...rest } = attribs;
        if (/^(https?:)?\/\//i.test(src)) {
          remoteImages++;
          return { tagName, attribs: { ...rest, 'data-blocked-src': src } };
        }
        return { tagName, attribs: rest };
      },
    },
  });
  return { html: clean, remoteImages };
}
