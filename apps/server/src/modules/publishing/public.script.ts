import { createHash } from 'node:crypto';

/**
 * The public site's one script: the previous/next buttons of a property's photo gallery. The pages
 * load it as a file of the site (`script-src 'self'`): the CSP allows no inline script but the web
 * app's own start-up one (by its hash), and never 'unsafe-inline'. Without it the buttons stay
 * hidden and the gallery scrolls as a plain list (swipe, trackpad, arrow keys).
 *
 * Each button scrolls the list to the photo before or after the one in view (the list snaps to
 * photos); a button is disabled at its end, and the focus moves to the other one when that happens
 * to the focused button, so a keyboard user is never left on nothing.
 */
export const GALLERY_SCRIPT = `(function () {
  'use strict';
  var still = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  Array.prototype.forEach.call(document.querySelectorAll('[data-gallery]'), function (wrap) {
    var list = wrap.querySelector('.gallery');
    var prev = wrap.querySelector('[data-dir="-1"]');
    var next = wrap.querySelector('[data-dir="1"]');
    if (!list || !prev || !next) return;
    var items = list.children;
    function current() {
      var x = list.scrollLeft, best = 0, gap = Infinity;
      for (var i = 0; i < items.length; i++) {
        var d = Math.abs(items[i].offsetLeft - x);
        if (d < gap) { gap = d; best = i; }
      }
      return best;
    }
    function update() {
      var scrolls = list.scrollWidth > list.clientWidth + 2;
      prev.hidden = next.hidden = !scrolls;
      var atStart = list.scrollLeft <= 2;
      var atEnd = list.scrollLeft + list.clientWidth >= list.scrollWidth - 2;
      [[prev, atStart, next], [next, atEnd, prev]].forEach(function (b) {
        if (b[1] && document.activeElement === b[0] && !b[2].disabled) b[2].focus();
        b[0].disabled = b[1];
      });
    }
    function go(step) {
      var i = Math.max(0, Math.min(items.length - 1, current() + step));
      list.scrollTo({ left: items[i].offsetLeft, behavior: still ? 'auto' : 'smooth' });
    }
    prev.addEventListener('click', function () { go(-1); });
    next.addEventListener('click', function () { go(1); });
    var queued = false;
    function later() {
      if (queued) return;
      queued = true;
      window.requestAnimationFrame(function () { queued = false; update(); });
    }
    list.addEventListener('scroll', later, { passive: true });
    window.addEventListener('resize', later);
    update();
  });
})();
`;

/** Its address, named by its content: a changed script is a new address, so it can be kept for a year. */
export const GALLERY_SCRIPT_VERSION = createHash('sha256').update(GALLERY_SCRIPT).digest('base64url').slice(0, 12);
export const GALLERY_SCRIPT_URL = `/listings/gallery.js?v=${GALLERY_SCRIPT_VERSION}`;
