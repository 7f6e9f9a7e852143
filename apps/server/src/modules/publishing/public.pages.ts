import { phoneHref, type TCulture } from '@crm/contract';
import type { TSiteContact } from '../settings/site-settings.service.ts';
import { Markup, html } from './html.ts';
import { GALLERY_SCRIPT_URL } from './public.script.ts';
import { PUBLIC_PAGE_SIZE, kindOptions, type TPublicFilter, type TPublicPlaceGroup, type TSimilarFilter } from './public.service.ts';
import { objectUrl, photoUrl, type TPublicMap, type TPublicObject } from './public.view.ts';
import type { T } from '../../lib/i18n.ts';

/** The longest enquiry message taken (the form says so, the server refuses a longer one). */
export const ENQUIRY_MESSAGE_MAX = 2000;

/**
 * `baseUrl`: the configured public address (PUBLIC_URL), never the request's Host: absolute links
 * (canonical, hreflang, og:*) start with it. `site`: the agency's details from the Settings page
 * (each null when not set, and then not shown).
 */
/** The agency as its public pages show it (issue 45): the name in the reader's letters, contacts, numbers, web address, the logo's path. */
export type TPublicAgency = TSiteContact & { website: string | null; licence: string | null; taxNumber: string | null; taxOffice: string | null; logo: string | null };
export type PageContext = { culture: TCulture; t: T; tileUrl: string; attribution: string; attributionUrl: string; baseUrl: string; site: TPublicAgency };

/** The agency's name: the one set on the Settings page, else the site name text of the reader's language. */
export const siteNameOf = (ctx: PageContext) => ctx.site.name ?? ctx.t('publishing.site.name');

/** A phone link ("tel:+302310123456") showing the number as the agency writes it. */
const phoneLink = (phone: string, testid: string) => html`<a href="${phoneHref(phone)}" data-testid="${testid}">${phone}</a>`;
/** A mail link, with a subject when one is given (the property's reference). */
const mailLink = (email: string, testid: string, subject?: string) =>
  html`<a href="mailto:${email}${subject ? `?subject=${encodeURIComponent(subject)}` : ''}" data-testid="${testid}">${email}</a>`;

/** The agency's details in every page's footer: name, address, phone and e-mail, those that are set. */
function siteContact(ctx: PageContext): Markup | '' {
  const { site, t } = ctx;
  if (!site.phone && !site.email && !site.address && !site.website && !site.licence && !site.taxNumber) return '';
  const parts: Markup[] = [html`<span class="agency-name">${siteNameOf(ctx)}</span>`];
  if (site.address) parts.push(html`<span data-testid="site-address">${site.address}</span>`);
  if (site.phone) parts.push(html`<span class="item">${t('publishing.site.phone')}: ${phoneLink(site.phone, 'site-phone')}</span>`);
  if (site.email) parts.push(html`<span class="item">${t('publishing.site.email')}: ${mailLink(site.email, 'site-email')}</span>`);
  if (site.website) parts.push(html`<span class="item"><a href="${site.website}" rel="noopener" data-testid="site-website">${site.website.replace(/^https?:\/\//i, '').replace(/\/$/, '')}</a></span>`);
  // The registry and tax numbers: a line only for what is set (never a label with nothing after it).
  const numbers: Markup[] = [];
  if (site.licence) numbers.push(html`<span class="item" data-testid="site-licence">${t('publishing.site.licence')}: ${site.licence}</span>`);
  if (site.taxNumber) numbers.push(html`<span class="item" data-testid="site-tax-number">${t('publishing.site.taxNumber')}: ${site.taxNumber}${site.taxOffice ? `, ${t('publishing.site.taxOffice')}: ${site.taxOffice}` : ''}</span>`);
  const line = (list: Markup[]) => list.map((p, i) => (i ? html`<span aria-hidden="true"> · </span>${p}` : p));
  return html`<address class="agency" data-testid="site-contact">${line(parts)}${numbers.length ? html`<br>${line(numbers)}` : ''}</address>`;
}

const CULTURES: TCulture[] = ['el', 'en', 'ru'];
const LANG_NAMES: Record<TCulture, string> = { el: 'Ελληνικά', en: 'English', ru: 'Русский' };

const group = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
/** 1 234 € (space thousands, symbol after). */
export const money = (n: number) => `${group(n)}\u00a0€`;
/** An area in the reader's unit (m², τ.μ., м²), with its decimals as stored (85,5 τ.μ.; 85.5 m²). */
export const area = (n: number, t: T, culture: TCulture) => {
  const whole = Math.trunc(n);
  const decimals = Math.round((n - whole) * 100);
  const fraction = decimals === 0 ? '' : `${culture === 'en' ? '.' : ','}${String(decimals).padStart(2, '0').replace(/0$/, '')}`;
  return `${group(whole)}${fraction}\u00a0${t('publishing.areaUnit')}`;
};
/**
 * A distance with the reader's decimal separator and units, as agents write it (and as the CRM's
 * screens do): "1.5 km" in English, "1,5 χλμ." in Greek, "1,5 км" in Russian; whole kilometres
 * without ",0" ("60 χλμ.").
 */
export const distance = (m: number, culture: TCulture, t: T) =>
  m >= 1000
    ? `${new Intl.NumberFormat(culture === 'en' ? 'en-GB' : culture, { minimumFractionDigits: 0, maximumFractionDigits: 1, useGrouping: false }).format(Math.round(m / 100) / 10)}\u00a0${t('common.unitKm')}`
    : `${group(m)}\u00a0${t('common.unitMetre')}`;
/** A date as the reader writes it in full ("26 March 2028", "26 Μαρτίου 2028"). */
export const longDate = (culture: TCulture, iso: string) =>
  new Intl.DateTimeFormat(culture === 'en' ? 'en-GB' : culture, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${iso.slice(0, 10)}T00:00:00Z`));

/** A text cut for a meta description: whole words, with an ellipsis when it was longer. */
export function excerpt(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:!?·–—-]+$/, '')}…`;
}

/** The same address without its lang parameter (the x-default: the language is picked from the browser). */
const withoutLang = (path: string) => {
  const u = new URL(path, 'http://x');
  u.searchParams.delete('lang');
  return `${u.pathname}${u.search}`;
};
const OG_LOCALE: Record<TCulture, string> = { el: 'el_GR', en: 'en_GB', ru: 'ru_RU' };

/** The site's terms for its visitors (what is done with an enquiry's details), in their language. */
export const termsUrl = (culture: TCulture, part?: string) => `/listings/terms?lang=${culture}${part ? `#${part}` : ''}`;

export const listingsUrl = (culture: TCulture, params: Record<string, string | number | undefined> = {}) => {
  const q = new URLSearchParams({ lang: culture });
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  return `/listings?${q.toString()}`;
};

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:#1b1b1f;background:#f6f7f9}
a{color:#0b57d0}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,.gallery:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:6px;z-index:9}
header.site{background:#fff;border-bottom:1px solid #dde1e6}
.bar{max-width:1120px;margin:0 auto;padding:10px 16px;display:flex;gap:12px;align-items:center;justify-content:space-between;flex-wrap:wrap}
.brand{font-weight:700;font-size:18px;color:#1b1b1f;text-decoration:none;display:inline-flex;align-items:center;gap:10px}.brand img{height:40px;width:auto;max-width:160px;object-fit:contain}
nav.langs ul{list-style:none;margin:0;padding:0;display:flex;gap:10px}
nav.langs a[aria-current]{font-weight:700;color:#1b1b1f;text-decoration:none}
main{max-width:1120px;margin:0 auto;padding:16px}
h1{font-size:26px;line-height:1.25;margin:8px 0 12px}
h2{font-size:19px;margin:0 0 6px}
form.filters{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:12px;display:grid;gap:10px;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));align-items:end}
label{display:block;font-size:14px;font-weight:600;margin-bottom:3px}
input,select,textarea{width:100%;font:inherit;padding:8px;border:1px solid #767b84;border-radius:6px;background:#fff;color:#1b1b1f}
button,.button{font:inherit;font-weight:600;padding:9px 16px;border:0;border-radius:6px;background:#0b57d0;color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
.count{margin:14px 0 8px;color:#44474e}
ul.cards{list-style:none;margin:0;padding:0;display:grid;gap:14px;grid-template-columns:repeat(auto-fill,minmax(260px,1fr))}
.card{background:#fff;border:1px solid #dde1e6;border-radius:8px;overflow:hidden;height:100%;display:flex;flex-direction:column}
.card img{width:100%;height:auto;aspect-ratio:4/3;object-fit:cover;display:block;background:#e8eaed}
.card .body{padding:10px 12px;display:flex;flex-direction:column;gap:4px}
.card h2 a,.card h3 a{color:#1b1b1f;text-decoration:none}.card h2 a::after,.card h3 a::after{content:"";position:absolute;inset:0}
.card h3{font-size:17px;margin:0 0 4px}
.card{position:relative}
.price{font-weight:700;font-size:18px}
.was{text-decoration:line-through;color:#5b5f66;font-weight:400;font-size:15px;margin-left:6px}
.muted{color:#44474e;font-size:14px}
.badge{display:inline-block;font-size:13px;font-weight:600;padding:1px 8px;border-radius:10px;background:#e3ecfd;color:#0a3f9c;margin-right:4px}
.badge-warn{background:#fdf0d5;color:#6b4200}
nav.pages ul{list-style:none;padding:0;display:flex;gap:8px;flex-wrap:wrap;margin:18px 0}
nav.pages a,nav.pages span{display:inline-block;min-width:40px;text-align:center;padding:8px 10px;border:1px solid #c4c7cc;border-radius:6px;background:#fff;text-decoration:none}
nav.pages span[aria-current]{background:#0b57d0;color:#fff;border-color:#0b57d0}
.gallery{display:flex;gap:8px;overflow-x:auto;scroll-snap-type:x mandatory;margin:0 0 12px;padding:0;list-style:none}
.gallery li{flex:0 0 min(92%,720px);scroll-snap-align:start}
.gallery img{width:100%;height:auto;aspect-ratio:4/3;object-fit:cover;border-radius:8px;display:block;background:#e8eaed}
.layout{display:grid;gap:18px;grid-template-columns:minmax(0,1fr)}
@media(min-width:900px){.layout{grid-template-columns:minmax(0,2fr) minmax(300px,1fr)}}
section.box{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:14px;margin-bottom:14px}
dl.facts{display:grid;grid-template-columns:auto 1fr;gap:4px 14px;margin:0}
dl.facts dt{color:#44474e}dl.facts dd{margin:0;font-weight:600}
ul.features{columns:2;padding-left:18px;margin:0}
.text{white-space:pre-line}
.map{position:relative;height:300px;overflow:hidden;border-radius:8px;background:#dfe6ea}
.map .tiles{position:absolute;width:768px;height:768px}
.map .tiles img{position:absolute;width:256px;height:256px}
.map svg{position:absolute;left:0;top:0;width:100%;height:100%}
.credit{font-size:12px;color:#44474e;margin-top:4px}
.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.ok{background:#e6f4ea;border:1px solid #8bc79b;border-radius:6px;padding:10px;color:#0d4a1f}
.err{color:#a1130a;font-size:14px;margin-top:3px}
.form-row{margin-bottom:10px}
footer{max-width:1120px;margin:0 auto;padding:16px;color:#44474e;font-size:14px}
footer p{margin:0}
address.agency{font-style:normal;margin:0 0 8px;color:#1b1b1f;font-size:15px;line-height:1.9}
address.agency .agency-name{font-weight:700}
address.agency a,.direct a{display:inline-block;min-height:24px;font-weight:600}
address.agency .item{white-space:nowrap}
@media(max-width:600px){address.agency>span{display:block}address.agency>span[aria-hidden]{display:none}address.agency .item{white-space:normal}}
address.agency a,.direct a{overflow-wrap:anywhere}
.direct{margin:0 0 12px;padding:0 0 12px;border-bottom:1px solid #dde1e6}
.direct p{margin:0 0 4px}
.direct ul{list-style:none;margin:0;padding:0;line-height:1.9}
.gallery-wrap{position:relative;margin:0 0 12px}
.gallery-wrap .gallery{margin:0;position:relative}
.gallery-nav{position:absolute;top:50%;transform:translateY(-50%);width:44px;height:44px;padding:0;border-radius:50%;border:1px solid #5b5f66;background:rgba(255,255,255,.94);color:#1b1b1f;display:flex;align-items:center;justify-content:center;box-shadow:0 1px 4px rgba(0,0,0,.3)}
.gallery-nav[hidden]{display:none}
.gallery-nav:hover:not([disabled]){background:#fff;border-color:#1b1b1f}
.gallery-nav:focus-visible{outline:3px solid #0b57d0;outline-offset:2px;box-shadow:0 0 0 2px #fff}
.gallery-nav[disabled]{opacity:.35;cursor:default;box-shadow:none}
.gallery-nav.prev{left:8px}.gallery-nav.next{right:8px}
.gallery-nav svg{width:22px;height:22px}
.gallery-full{position:absolute;top:8px;right:8px;display:flex;align-items:center;gap:6px;min-height:44px;padding:0 14px;border-radius:22px;border:1px solid #5b5f66;background:rgba(255,255,255,.94);color:#1b1b1f;font-size:15px;box-shadow:0 1px 4px rgba(0,0,0,.3)}
.gallery-full[hidden]{display:none}
.gallery-full:hover{background:#fff;border-color:#1b1b1f}
.gallery-full:focus-visible{outline:3px solid #0b57d0;outline-offset:2px;box-shadow:0 0 0 2px #fff}
.gallery-full svg{width:20px;height:20px;flex:none}
.gallery-wrap.enlarges .gallery img{cursor:zoom-in}
dialog.lightbox{width:100vw;height:100vh;height:100dvh;max-width:none;max-height:none;margin:0;padding:0;border:0;background:#0e0f11;color:#fff;overflow:hidden}
dialog.lightbox::backdrop{background:#0e0f11}
html:has(dialog.lightbox[open]){overflow:hidden}
.lb-stage{position:absolute;inset:0;display:flex;align-items:center;justify-content:center;padding:60px 8px 12px}
.lb-img{max-width:100%;max-height:100%;width:auto;height:auto;object-fit:contain;display:block;user-select:none}
.lb-top{position:absolute;top:0;left:0;right:0;display:flex;align-items:center;justify-content:space-between;gap:12px;padding:6px 8px 6px 16px;background:linear-gradient(rgba(0,0,0,.7),rgba(0,0,0,0))}
.lb-count{font-size:16px;font-weight:600;font-variant-numeric:tabular-nums}
.lb-button{width:48px;height:48px;padding:0;border-radius:50%;border:1px solid rgba(255,255,255,.7);background:rgba(0,0,0,.6);color:#fff;display:flex;align-items:center;justify-content:center}
.lb-button:hover{background:#000}
.lb-button:focus-visible{outline:3px solid #fff;outline-offset:2px;box-shadow:0 0 0 5px #0b57d0}
.lb-button svg{width:24px;height:24px}
.lb-nav{position:absolute;top:50%;transform:translateY(-50%)}
.lb-nav.prev{left:10px}.lb-nav.next{right:10px}
.hint{font-size:14px;color:#44474e;margin-top:3px;display:flex;flex-wrap:wrap;justify-content:space-between;gap:0 12px}
.hint .counter{font-variant-numeric:tabular-nums;white-space:nowrap}
.hint .counter.too-long{color:#a1130a;font-weight:700}
.hint .err{flex-basis:100%;margin:0;font-weight:600}
.terms p{margin:0 0 8px}
`;

type LayoutOptions = {
  title: string;
  description?: string;
  /** The page's address in each language (a path, made absolute with the public address). */
  path: (c: TCulture) => string;
  /** For link previews: the page's main picture (a path) and whether it is one property's page. */
  image?: string;
  type?: 'website' | 'article';
  /** A page of its own that search engines should not keep (an answer to a form, a page past the last). */
  noindex?: boolean;
  /** A script file of the public site to run (allowed by the CSP as 'self'; the page works without it). */
  script?: string;
};

/**
 * The page around every public screen: language links, skip link, one main landmark; and what a
 * shared link or a search engine reads (canonical, hreflang with x-default, og:*), every address
 * absolute from the configured public address.
 */
export function layout(ctx: PageContext, opts: LayoutOptions, body: Markup): string {
  const { t, culture } = ctx;
  const abs = (path: string) => `${ctx.baseUrl}${path}`;
  const canonical = abs(opts.path(culture));
  const description = opts.description ? excerpt(opts.description) : '';
  const siteName = siteNameOf(ctx);
  return (
    '<!doctype html>' +
    html`<html lang="${culture}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title} · ${siteName}</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
${description ? html`<meta name="description" content="${description}">` : ''}
${opts.noindex ? html`<meta name="robots" content="noindex">` : ''}
<link rel="canonical" href="${canonical}">
${CULTURES.map((c) => html`<link rel="alternate" hreflang="${c}" href="${abs(opts.path(c))}">`)}
<link rel="alternate" hreflang="x-default" href="${abs(withoutLang(opts.path(culture)))}">
<meta property="og:site_name" content="${siteName}">
<meta property="og:type" content="${opts.type ?? 'website'}">
<meta property="og:title" content="${opts.title}">
${description ? html`<meta property="og:description" content="${description}">` : ''}
<meta property="og:url" content="${canonical}">
<meta property="og:locale" content="${OG_LOCALE[culture]}">
${CULTURES.filter((c) => c !== culture).map((c) => html`<meta property="og:locale:alternate" content="${OG_LOCALE[c]}">`)}
${opts.image ? html`<meta property="og:image" content="${abs(opts.image)}"><meta property="og:image:alt" content="${opts.title}">` : ''}
<meta name="twitter:card" content="${opts.image ? 'summary_large_image' : 'summary'}">
<style>${new Markup(CSS)}</style></head>
<body><a class="skip" href="#main">${t('publishing.site.skip')}</a>
<header class="site"><div class="bar"><a class="brand" href="${listingsUrl(culture)}">${ctx.site.logo ? html`<img src="${ctx.site.logo}" alt="" height="40">` : ''}${siteName}</a>
<nav class="langs" aria-label="${t('publishing.site.language')}"><ul>${CULTURES.map(
      (c) => html`<li><a href="${opts.path(c)}" lang="${c}" hreflang="${c}" ${c === culture ? html`aria-current="page"` : ''}>${LANG_NAMES[c]}</a></li>`,
    )}</ul></nav></div></header>
<main id="main">${body}</main>
<footer>${siteContact(ctx)}<p>${t('publishing.site.footer')} · <a href="${termsUrl(culture)}" data-testid="site-terms">${t('publishing.site.terms')}</a></p></footer>
${opts.script ? html`<script src="${opts.script}" defer></script>` : ''}
</body></html>`.text
  );
}

/** What a filtered list shows, as its title: "Apartments for rent – Kalamaria", in the reader's language. */
export function listTitle(t: T, f: TPublicFilter, placeName: string | undefined): string {
  if (!f.service && !f.kind && !placeName) return t('publishing.list.title');
  const what = f.kind ? t(`publishing.plural.${f.kind}`) : f.service ? t('publishing.plural.all') : t('publishing.list.title');
  const offered = f.service ? t(`publishing.list.titleService.${f.service}`, { what }) : what;
  return placeName ? t('publishing.list.titlePlace', { what: offered, place: placeName }) : offered;
}

/** The badge that says a let property is not free now: from when it is, or that it is let. */
function availability(ctx: PageContext, o: TPublicObject): Markup | '' {
  if (o.availableFrom) return html`<div><span class="badge badge-warn" data-testid="available-from">${ctx.t('publishing.object.availableFrom', { date: longDate(ctx.culture, o.availableFrom) })}</span></div>`;
  if (o.letNow) return html`<div><span class="badge badge-warn" data-testid="available-from">${ctx.t('publishing.object.letNow')}</span></div>`;
  return '';
}

/** Counts of rooms a property may have none of: not shown when none ("Bedrooms: 0" of a studio, "WC: 0" of a flat, a shop's rooms). */
const ROOM_COUNTS = new Set(['bedrooms', 'livingRooms', 'kitchens', 'bathrooms', 'wc']);
/** The facts a page shows: no room count of 0. */
const shownFacts = (o: TPublicObject) => o.facts.filter((f) => !(ROOM_COUNTS.has(f.key) && Number(f.value) === 0));

function priceLine(t: T, o: TPublicObject) {
  return o.prices.map(
    (p) =>
      html`<div><span class="price">${money(p.price)}</span>${p.service !== 'sale' ? html` <span class="muted">${t(`publishing.per.${p.service}`)}</span>` : ''}${
        p.was !== null ? html`<span class="was"><span class="hp">${t('publishing.object.was')} </span>${money(p.was)}</span>` : ''
      } <span class="badge">${t(`publishing.service.${p.service}`)}</span></div>`,
  );
}

function option(value: string | number, text: string, selected: boolean) {
  return html`<option value="${value}" ${selected ? html`selected` : ''}>${text}</option>`;
}

/** One property of a list: its first photo, title (a link to its page), type and place, prices, area and bedrooms, badges. */
function card(ctx: PageContext, o: TPublicObject, i: number, heading: 'h2' | 'h3' = 'h2'): Markup {
  const { t, culture } = ctx;
  const link = html`<a href="${objectUrl(culture, o.ref)}">${o.title}</a>`;
  return html`<li><article class="card" data-ref="${o.ref}">
${o.photos[0] ? html`<img src="${photoUrl(o.photos[0], 'thumb')}" alt="" width="480" height="360" ${i > 2 ? html`loading="lazy"` : ''} decoding="async">` : ''}
<div class="body">${heading === 'h2' ? html`<h2>${link}</h2>` : html`<h3>${link}</h3>`}
<div class="muted">${[o.type, o.place].filter(Boolean).join(' · ')}</div>
${priceLine(t, o)}
<div class="muted">${[
    o.facts.find((x) => x.key === 'area') ? area(Number(o.facts.find((x) => x.key === 'area')!.value), t, culture) : null,
    shownFacts(o).find((x) => x.key === 'bedrooms') ? t('publishing.list.bedrooms', { count: Number(o.facts.find((x) => x.key === 'bedrooms')!.value) }) : null,
  ]
    .filter(Boolean)
    .join(' · ')}</div>
${o.reserved ? html`<div><span class="badge">${t('fields.object.reserved')}</span></div>` : ''}
${availability(ctx, o)}
</div></article></li>`;
}

/** /listings: the filter form, the cards of one page and the pager. */
export function listPage(ctx: PageContext, f: TPublicFilter, items: TPublicObject[], total: number, places: TPublicPlaceGroup[], placeName?: string): string {
  const { t, culture } = ctx;
  const title = listTitle(t, f, placeName);
  const params = { service: f.service, kind: f.kind, place: f.place, priceMin: f.priceMin, priceMax: f.priceMax, bedrooms: f.bedrooms, sort: f.sort === 'new' ? undefined : f.sort };
  const pages = Math.max(1, Math.ceil(total / PUBLIC_PAGE_SIZE));
  const pageLinks: Markup[] = [];
  const around = Math.min(f.page, pages);
  for (let p = Math.max(1, around - 3); p <= Math.min(pages, around + 3); p++) {
    pageLinks.push(
      p === f.page
        ? html`<li><span aria-current="page">${p}</span></li>`
        : html`<li><a href="${listingsUrl(culture, { ...params, page: p })}" aria-label="${t('publishing.list.page', { page: p })}">${p}</a></li>`,
    );
  }
  // A page number past the last: the count and the way back agree with what there is.
  const pastEnd = total > 0 && f.page > pages;
  const body = html`<h1>${title}</h1>
<form class="filters" method="get" action="/listings" role="search" aria-label="${t('publishing.list.filters')}">
<input type="hidden" name="lang" value="${culture}">
<div><label for="f-service">${t('publishing.filter.service')}</label><select id="f-service" name="service">${option('', t('publishing.filter.any'), !f.service)}${(['sale', 'rent', 'shortRent'] as const).map((s) =>
    option(s, t(`publishing.service.${s}`), f.service === s),
  )}</select></div>
<div><label for="f-kind">${t('publishing.filter.type')}</label><select id="f-kind" name="kind">${option('', t('publishing.filter.any'), !f.kind)}${kindOptions(t).map(
    (k) => html`<optgroup label="${k.text}">${option(k.value, k.text, f.kind === k.value)}${k.children.map((s) => option(s.value, s.text, f.kind === s.value))}</optgroup>`,
  )}</select></div>
<div><label for="f-place">${t('publishing.filter.place')}</label><select id="f-place" name="place">${option('', t('publishing.filter.any'), !f.place)}${places.map((g) => {
    // A region's places under its name: the open list indents them, the closed box shows the name alone.
    const options = g.places.map((p) => option(p.id, p.text, f.place === p.id));
    return g.region === null ? options : html`<optgroup label="${g.region}">${options}</optgroup>`;
  })}</select></div>
<div><label for="f-min">${t('publishing.filter.priceMin')}</label><input id="f-min" name="priceMin" type="number" min="0" step="1" inputmode="numeric" value="${f.priceMin ?? ''}"></div>
<div><label for="f-max">${t('publishing.filter.priceMax')}</label><input id="f-max" name="priceMax" type="number" min="0" step="1" inputmode="numeric" value="${f.priceMax ?? ''}"></div>
<div><label for="f-bed">${t('publishing.filter.bedrooms')}</label><select id="f-bed" name="bedrooms">${option('', t('publishing.filter.any'), f.bedrooms === undefined)}${[1, 2, 3, 4, 5].map((n) =>
    option(n, `${n}+`, f.bedrooms === n),
  )}</select></div>
<div><label for="f-sort">${t('publishing.filter.sort')}</label><select id="f-sort" name="sort">${(['new', 'priceAsc', 'priceDesc'] as const).map((s) => option(s, t(`publishing.sort.${s}`), f.sort === s))}</select></div>
<div><button type="submit">${t('publishing.filter.apply')}</button></div>
</form>
<p class="count" role="status" data-testid="public-count">${t('publishing.list.count', { count: total })}${pages > 1 && !pastEnd ? html` · ${t('publishing.list.pageOf', { page: Math.min(f.page, pages), pages })}` : ''}</p>
${
  items.length
    ? html`<ul class="cards" data-testid="public-list">${items.map((o, i) => card(ctx, o, i))}</ul>`
    : pastEnd
      ? html`<p data-testid="public-empty">${t('publishing.list.pastEnd', { pages })} <a href="${listingsUrl(culture, { ...params, page: pages > 1 ? pages : undefined })}">${t('publishing.list.lastPage')}</a></p>`
      : html`<p data-testid="public-empty">${t('publishing.list.empty')} <a href="${listingsUrl(culture)}">${t('publishing.list.clear')}</a></p>`
}
${pages > 1 ? html`<nav class="pages" aria-label="${t('publishing.list.pages')}"><ul>${pageLinks}</ul></nav>` : ''}`;
  return layout(
    ctx,
    {
      title,
      description: t('publishing.list.description'),
      path: (c) => listingsUrl(c, { ...params, page: f.page > 1 ? f.page : undefined }),
      image: items[0]?.photos[0] ? photoUrl(items[0].photos[0], 'web') : undefined,
      noindex: pastEnd,
    },
    body,
  );
}

/** Web Mercator: the pixel of a point at a zoom (256-pixel tiles). */
function pixelOf(lat: number, lng: number, zoom: number) {
  const scale = 256 * 2 ** zoom;
  const s = Math.sin((Math.max(-85, Math.min(85, lat)) * Math.PI) / 180);
  return { x: ((lng + 180) / 360) * scale, y: (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * scale };
}

/**
 * The map as plain images (no script): the 3×3 tiles around the place, with the approximate
 * circle (or the point, when the object shows it) drawn over them. Centred in a box 300 px high.
 */
export function staticMap(ctx: PageContext, m: TPublicMap): Markup {
  const lat = m.latitude;
  const metresPerPixelAtZ0 = 156543.03392 * Math.cos((lat * Math.PI) / 180);
  // The circle about 70 px across its radius; the point at the object's own zoom.
  const zoom = m.kind === 'circle' ? Math.max(3, Math.min(17, Math.floor(Math.log2((metresPerPixelAtZ0 * 70) / m.radius)))) : Math.max(3, Math.min(17, m.zoom));
  const p = pixelOf(m.latitude, m.longitude, zoom);
  const tx = Math.floor(p.x / 256);
  const ty = Math.floor(p.y / 256);
  const n = 2 ** zoom;
  const tiles: Markup[] = [];
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      const x = (((tx + dx) % n) + n) % n;
      const y = ty + dy;
      if (y < 0 || y >= n) continue;
      const src = ctx.tileUrl.replace('{s}', 'a').replace('{z}', String(zoom)).replace('{x}', String(x)).replace('{y}', String(y));
      // With the site's origin as referrer (the page itself sends none): tile servers may refuse without.
      tiles.push(html`<img src="${src}" alt="" loading="lazy" referrerpolicy="strict-origin-when-cross-origin" style="left:${(dx + 1) * 256}px;top:${(dy + 1) * 256}px">`);
    }
  }
  // The tiles block's top-left corner, so that the place is in the middle of the box.
  const offX = Math.round(p.x - (tx - 1) * 256);
  const offY = Math.round(p.y - (ty - 1) * 256);
  const radiusPx = m.kind === 'circle' ? Math.max(8, m.radius / (metresPerPixelAtZ0 / 2 ** zoom)) : 0;
  return html`<figure style="margin:0"><div class="map" data-testid="public-map" data-kind="${m.kind}" role="img" aria-label="${m.kind === 'circle' ? ctx.t('publishing.object.mapApprox') : ctx.t('publishing.object.mapExact')}">
<div class="tiles" style="left:calc(50% - ${offX}px);top:${150 - offY}px">${tiles}</div>
<svg aria-hidden="true" focusable="false">${
    m.kind === 'circle'
      ? html`<circle cx="50%" cy="150" r="${radiusPx.toFixed(0)}" fill="rgba(11,87,208,.18)" stroke="#0b57d0" stroke-width="2"/>`
      : html`<circle cx="50%" cy="150" r="9" fill="#d93025" stroke="#fff" stroke-width="3"/>`
  }</svg></div>
<figcaption class="credit">${m.kind === 'circle' ? html`${ctx.t('publishing.object.mapApprox')} · ` : ''}${/^©/.test(ctx.attribution) ? '' : '© '}<a href="${ctx.attributionUrl}" rel="noopener noreferrer">${ctx.attribution}</a></figcaption></figure>`;
}

export type ContactState = { sent?: boolean; values?: Partial<Record<'name' | 'email' | 'phone' | 'message', string>>; errors?: Partial<Record<string, string>>; problem?: string };

/**
 * The enquiry form (or its thank-you). The message has no maxlength: a browser would cut a longer
 * pasted text without a word. The limit is written under it, the site's script counts as the visitor
 * types, and the server refuses a longer message with the text kept.
 */
function contactForm(ctx: PageContext, ref: string, s: ContactState): Markup {
  const { t, culture } = ctx;
  if (s.sent) return html`<p class="ok" role="status" data-testid="contact-sent">${t('publishing.contact.sent')}</p>`;
  const v = s.values ?? {};
  const e = s.errors ?? {};
  const field = (name: 'name' | 'email' | 'phone' | 'message', type: string, extra: Markup | string = '', hint: Markup | '' = '') => {
    const id = `c-${name}`;
    const err = e[name];
    const described = [hint ? `${id}-hint` : '', err ? `${id}-err` : ''].filter(Boolean).join(' ');
    const aria = html`${err ? html`aria-invalid="true"` : ''} ${described ? html`aria-describedby="${described}"` : ''}`;
    const input =
      type === 'textarea'
        ? html`<textarea id="${id}" name="${name}" rows="4" ${aria} ${extra}>${v[name] ?? t('publishing.contact.defaultMessage', { ref })}</textarea>`
        : html`<input id="${id}" name="${name}" type="${type}" value="${v[name] ?? ''}" ${aria} ${extra}>`;
    return html`<div class="form-row"><label for="${id}">${t(`publishing.contact.${name}`)}</label>${input}${hint}${err ? html`<div class="err" id="${id}-err" data-testid="contact-${name}-error">${err}</div>` : ''}</div>`;
  };
  const messageHint = html`<div class="hint" id="c-message-hint"><span>${t('publishing.contact.messageLimit', { max: ENQUIRY_MESSAGE_MAX })}</span> <span class="counter" id="c-message-count" data-testid="contact-message-count" hidden></span>
<span class="err" id="c-message-over" role="status" data-text="${t('publishing.contact.messageOver')}"></span></div>`;
  // The answer to a sending (the form again with its errors) opens at the form, as the thank-you does: the action keeps #contact.
  return html`${s.problem ? html`<p class="err" role="alert" data-testid="contact-problem">${s.problem}</p>` : ''}
<form method="post" action="/listings/${ref}/contact?lang=${culture}#contact" data-testid="contact-form" novalidate>
${field('name', 'text', html`maxlength="100" autocomplete="name" required`)}
${field('email', 'email', html`maxlength="200" autocomplete="email" required`)}
${field('phone', 'tel', html`maxlength="40" autocomplete="tel"`)}
${field('message', 'textarea', html`required data-max="${ENQUIRY_MESSAGE_MAX}"`, messageHint)}
<div class="hp" aria-hidden="true"><label for="c-website">Website</label><input id="c-website" name="website" type="text" tabindex="-1" autocomplete="off"></div>
<p class="muted">${t('publishing.contact.privacy')} <a href="${termsUrl(culture, 'enquiries')}" data-testid="contact-terms">${t('publishing.contact.privacyLink')}</a></p>
<button type="submit">${t('publishing.contact.send')}</button></form>`;
}

/** Beside the enquiry form: the agency's phone and e-mail, when set, to call or write at once. */
function directContact(ctx: PageContext, o: TPublicObject): Markup | '' {
  const { site, t } = ctx;
  if (!site.phone && !site.email) return '';
  return html`<div class="direct" data-testid="contact-direct"><p>${t('publishing.contact.direct')}</p><ul>
${site.phone ? html`<li>${t('publishing.site.phone')}: ${phoneLink(site.phone, 'contact-phone')}</li>` : ''}
${site.email ? html`<li>${t('publishing.site.email')}: ${mailLink(site.email, 'contact-email', t('publishing.contact.mailSubject', { ref: o.ref, title: o.title }))}</li>` : ''}
</ul></div>`;
}

const CHEVRON = {
  prev: new Markup('<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round"/></svg>'),
  next: new Markup('<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M9 5l7 7-7 7" fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round"/></svg>'),
};
const ICON = {
  expand: new Markup('<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></svg>'),
  close: new Markup('<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M6 6l12 12M18 6L6 18" fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round"/></svg>'),
};

/**
 * The photos: a list that scrolls sideways (swipe, trackpad, or the arrow keys once it has the
 * focus), snapping to each photo. With more than one photo, previous/next buttons scroll it by one.
 * "Full screen" (or a click on a photo, or Enter on the list) opens them in a dialog over the whole
 * screen: previous/next buttons, the arrow keys and a swipe go through them, "2 / 5" says where,
 * Escape, the close button or a click beside the photo closes it, and the focus goes back to where
 * it was. The buttons are hidden until the site's script shows them, so without script the
 * gallery is the plain scrolling list.
 */
function gallery(ctx: PageContext, o: TPublicObject): Markup | '' {
  const { t } = ctx;
  if (!o.photos.length) return '';
  const count = o.photos.length;
  const list = html`<ul class="gallery" id="gallery" tabindex="0" aria-label="${t('publishing.object.photos')}">${o.photos.map(
    (p, i) => html`<li><img src="${photoUrl(p, 'web')}" alt="${t('publishing.object.photoAlt', { title: o.title, n: i + 1, count })}" width="1600" height="1200" ${i > 0 ? html`loading="lazy"` : ''} decoding="async"></li>`,
  )}</ul>`;
  const nav =
    count > 1
      ? html`<button type="button" class="gallery-nav prev" data-dir="-1" aria-controls="gallery" aria-label="${t('publishing.object.photoPrev')}" data-testid="gallery-prev" hidden>${CHEVRON.prev}</button>
<button type="button" class="gallery-nav next" data-dir="1" aria-controls="gallery" aria-label="${t('publishing.object.photoNext')}" data-testid="gallery-next" hidden>${CHEVRON.next}</button>`
      : '';
  const full = html`<button type="button" class="gallery-full" aria-haspopup="dialog" aria-controls="lightbox" data-testid="gallery-full" hidden>${ICON.expand}<span>${t('publishing.object.fullScreen')}</span></button>`;
  const dialog = html`<dialog class="lightbox" id="lightbox" aria-label="${t('publishing.object.lightbox', { title: o.title })}" data-testid="lightbox">
<div class="lb-stage" data-testid="lightbox-stage"><img class="lb-img" alt="" data-testid="lightbox-img"></div>
<div class="lb-top"><span class="lb-count" aria-hidden="true" data-testid="lightbox-count"></span><button type="button" class="lb-button lb-close" aria-label="${t('publishing.object.lightboxClose')}" data-testid="lightbox-close" autofocus>${ICON.close}</button></div>
${count > 1 ? html`<button type="button" class="lb-button lb-nav prev" data-step="-1" aria-label="${t('publishing.object.photoPrev')}" data-testid="lightbox-prev">${CHEVRON.prev}</button>
<button type="button" class="lb-button lb-nav next" data-step="1" aria-label="${t('publishing.object.photoNext')}" data-testid="lightbox-next">${CHEVRON.next}</button>` : ''}
<p class="hp" aria-live="polite" data-lb-status></p></dialog>`;
  return html`<div class="gallery-wrap" data-gallery>${list}${nav}${full}</div>${dialog}`;
}

/** /listings/{ref}: photos, prices, the facts, description, map and the contact form. */
export function objectPage(ctx: PageContext, o: TPublicObject, contact: ContactState): string {
  const { t, culture } = ctx;
  const factText = (key: string, value: string | number) =>
    key === 'area' || key === 'lotArea' || key === 'buildableArea' || key === 'sizeOfBalconies'
      ? area(Number(value), t, culture)
      : key === 'distanceFromSea' || key === 'distanceFromAirport'
        ? distance(Number(value), culture, t)
        : key === 'dateAvailable'
          ? longDate(culture, String(value))
          : key === 'floor' && Number(value) === 0
            ? t('publishing.object.groundFloor')
            : String(value);
  const body = html`<p><a href="${listingsUrl(culture)}">← ${t('publishing.object.back')}</a></p>
<article data-testid="public-object" data-ref="${o.ref}">
<h1>${o.title}</h1>
<p class="muted">${[o.type, o.place].filter(Boolean).join(' · ')} · ${t('publishing.object.ref', { ref: o.ref })}</p>
${gallery(ctx, o)}
<div class="layout"><div>
<section class="box" aria-labelledby="h-price"><h2 id="h-price">${t('publishing.object.price')}</h2>${priceLine(t, o)}${
    o.sharedExpenses !== null ? html`<div class="muted">${t('fields.object.averageMonthlySharedExpenses')}: ${money(o.sharedExpenses)}</div>` : ''
  }${o.reserved ? html`<div><span class="badge">${t('fields.object.reserved')}</span></div>` : ''}${o.letNow && !o.availableFrom ? availability(ctx, o) : ''}</section>
<section class="box" aria-labelledby="h-facts"><h2 id="h-facts">${t('publishing.object.facts')}</h2><dl class="facts">
${shownFacts(o)
  .filter((f) => f.key !== 'zipCode')
  .map((f) => html`<dt>${t(`fields.object.${f.key}`)}</dt><dd>${factText(f.key, f.value)}</dd>`)}
${o.address ? html`<dt>${t('fields.object.address')}</dt><dd>${o.address}</dd>` : ''}
${o.facts
  .filter((f) => f.key === 'zipCode')
  .map((f) => html`<dt>${t('fields.object.zipCode')}</dt><dd>${f.value}</dd>`)}
</dl></section>
${o.features.length ? html`<section class="box" aria-labelledby="h-features"><h2 id="h-features">${t('publishing.object.features')}</h2><ul class="features">${o.features.map((f) => html`<li>${t(`fields.object.${f}`)}</li>`)}</ul></section>` : ''}
<section class="box" aria-labelledby="h-description"><h2 id="h-description">${t('publishing.object.description')}</h2><div class="text">${o.description}</div>
${o.videoURL ? html`<p><a href="${o.videoURL}" rel="noopener noreferrer nofollow">${t('publishing.object.video')}</a></p>` : ''}</section>
${o.map ? html`<section class="box" aria-labelledby="h-map"><h2 id="h-map">${t('publishing.object.map')}</h2>${staticMap(ctx, o.map)}</section>` : ''}
</div><div>
<section class="box" id="contact" aria-labelledby="h-contact"><h2 id="h-contact">${t('publishing.contact.title')}</h2>${directContact(ctx, o)}${contactForm(ctx, o.ref, contact)}</section>
</div></div></article>`;
  return layout(
    ctx,
    {
      title: o.title,
      description: o.description,
      path: (c) => objectUrl(c, o.ref),
      image: o.photos[0] ? photoUrl(o.photos[0], 'web') : undefined,
      type: 'article',
      noindex: !!(contact.sent || contact.values),
      // The gallery's buttons and full-screen view, and the message's counter.
      script: GALLERY_SCRIPT_URL,
    },
    body,
  );
}

/**
 * A property that was on the site and is not now (withdrawn, sold, refused or deleted): its address
 * opened (a link kept, a search engine's result, a page kept by the browser) or an enquiry sent from
 * its page. It says so, offers its form all the same (the enquiry is kept as any other, decision
 * 022: the agency wants the client; or the thanks, or the form again with what was typed and why it
 * was not sent), and shows a few published properties like it with a link to all of them.
 */
export function withdrawnPage(ctx: PageContext, ref: string, contact: ContactState, similar?: { items: TPublicObject[]; filter: TSimilarFilter }): string {
  const { t, culture } = ctx;
  const more = similar?.items.length
    ? html`<section class="box" aria-labelledby="h-similar" data-testid="similar"><h2 id="h-similar">${t('publishing.withdrawn.similar')}</h2>
<ul class="cards">${similar.items.map((o, i) => card(ctx, o, i, 'h3'))}</ul>
<p><a href="${listingsUrl(culture, similar.filter)}" data-testid="similar-all">${t('publishing.withdrawn.similarAll')}</a></p></section>`
    : '';
  const body = html`<p><a href="${listingsUrl(culture)}">← ${t('publishing.object.back')}</a></p>
<h1>${t('publishing.withdrawn.title', { ref })}</h1>
<div class="layout"><div>
<section class="box" id="contact" aria-labelledby="h-contact" data-testid="withdrawn"><h2 id="h-contact">${t('publishing.contact.title')}</h2>
${contact.sent ? html`${contactForm(ctx, ref, contact)}<p>${t('publishing.withdrawn.sentText')}</p>` : html`<p>${t('publishing.withdrawn.text')}</p>${contactForm(ctx, ref, contact)}`}</section>
</div></div>
${more}`;
  return layout(
    ctx,
    {
      title: t('publishing.withdrawn.title', { ref }),
      path: (c) => `/listings/${ref}?lang=${c}${contact.sent ? '&sent=1' : ''}`,
      noindex: true,
      script: contact.sent ? undefined : GALLERY_SCRIPT_URL,
    },
    body,
  );
}

/**
 * A page for an address that shows nothing (no such published object). `path`: the address asked
 * for in each language, so that the language links keep it (a link followed in another language).
 */
export function notFoundPage(ctx: PageContext, path: (c: TCulture) => string = (c) => listingsUrl(c)): string {
  const { t, culture } = ctx;
  return layout(
    ctx,
    { title: t('publishing.notFound.title'), path, noindex: true },
    html`<h1>${t('publishing.notFound.title')}</h1><p>${t('publishing.notFound.text')}</p><p><a href="${listingsUrl(culture)}">${t('publishing.object.back')}</a></p>`,
  );
}

/**
 * /listings/terms: the site's terms for its visitors, in their language: what the listings are (and
 * are not), what is kept of an enquiry and for what, who sees it and for how long, the visitor's
 * rights and whom to ask, and what else the site keeps (no cookies; the throttle's counts; the
 * map's images from the tile server). The staff's terms (/terms.htm) are the CRM's, not these.
 */
export function termsPage(ctx: PageContext): string {
  const { t, culture, site } = ctx;
  const name = siteNameOf(ctx);
  let tileHost = '';
  try {
    tileHost = new URL(ctx.tileUrl.replace(/\{s\}/g, 'a').replace(/\{[a-z]+\}/g, '0')).host.replace(/^a\./, '');
  } catch {
    tileHost = '';
  }
  const contactLine = site.email
    ? html`${t('publishing.terms.askEmail')} ${mailLink(site.email, 'terms-email')}${site.phone ? html` · ${t('publishing.site.phone')}: ${phoneLink(site.phone, 'terms-phone')}` : ''}`
    : site.phone
      ? html`${t('publishing.terms.askPhone')} ${phoneLink(site.phone, 'terms-phone')}`
      : t('publishing.terms.askForm');
  const section = (id: string, heading: string, paras: (Markup | string)[]) =>
    html`<section class="box" id="${id}" aria-labelledby="h-${id}"><h2 id="h-${id}">${heading}</h2>${paras.map((p) => html`<p>${p}</p>`)}</section>`;
  const body = html`<p><a href="${listingsUrl(culture)}">← ${t('publishing.object.back')}</a></p>
<h1>${t('publishing.terms.title')}</h1>
<div class="terms" data-testid="terms">
${section('listings', t('publishing.terms.listingsTitle'), [t('publishing.terms.listings', { agency: name }), t('publishing.terms.listingsChange')])}
${section('enquiries', t('publishing.terms.enquiriesTitle'), [
  t('publishing.terms.enquiriesKept'),
  t('publishing.terms.enquiriesUse', { agency: name }),
  t('publishing.terms.enquiriesTime'),
  html`${t('publishing.terms.rights')} ${contactLine}`,
])}
${section('site', t('publishing.terms.siteTitle'), [t('publishing.terms.noCookies'), t('publishing.terms.abuse'), ...(tileHost ? [t('publishing.terms.map', { host: tileHost })] : [])])}
</div>`;
  return layout(ctx, { title: t('publishing.terms.title'), description: t('publishing.terms.enquiriesKept'), path: (c) => termsUrl(c) }, body);
}
