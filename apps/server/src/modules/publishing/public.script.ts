import { createHash } from 'node:crypto';

/**
 * The public site's one script. The pages load it as a file of the site (`script-src 'self'`): the
 * CSP allows no inline script but the web app's own start-up one (by its hash), and never
 * 'unsafe-inline'. Without it every page still works: the buttons it shows stay hidden, the gallery
 * scrolls as a plain list (swipe, trackpad, arrow keys), and the form is sent and checked by the
 * server.
 *
 * - The gallery's previous/next buttons scroll the list to the photo before or after the one in
 *   view (the list snaps to photos); a button is disabled at its end, and the focus moves to the
 *   other one when that happens to the focused button, so a keyboard user is never left on nothing.
 * - Full screen (the "Full screen" button, a click on a photo, Enter on the list): a modal dialog
 *   with the photo as large as the screen allows, "2 / 5", previous/next (buttons, arrow keys, a
 *   swipe), going round at the ends; Escape, the close button or a click beside the photo closes
 *   it, the list shows the photo seen last, and the focus goes back to where it was.
 * - The message's counter: "1 234 / 2 000" under the box as it is typed, and a line read out once
 *   it goes over (the server refuses a longer message; the box has no maxlength, which would cut a
 *   pasted text without a word).
 */
export const GALLERY_SCRIPT = `(function () {
  'use strict';
  var still = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  Array.prototype.forEach.call(document.querySelectorAll('[data-gallery]'), function (wrap) {
    var list = wrap.querySelector('.gallery');
    if (!list) return;
    var prev = wrap.querySelector('[data-dir="-1"]');
    var next = wrap.querySelector('[data-dir="1"]');
    var items = list.children;
    function current() {
      var x = list.scrollLeft, best = 0, gap = Infinity;
      for (var i = 0; i < items.length; i++) {
        var d = Math.abs(items[i].offsetLeft - x);
        if (d < gap) { gap = d; best = i; }
      }
      return best;
    }
    if (prev && next) {
      var update = function () {
        var scrolls = list.scrollWidth > list.clientWidth + 2;
        prev.hidden = next.hidden = !scrolls;
        var atStart = list.scrollLeft <= 2;
        var atEnd = list.scrollLeft + list.clientWidth >= list.scrollWidth - 2;
        [[prev, atStart, next], [next, atEnd, prev]].forEach(function (b) {
          if (b[1] && document.activeElement === b[0] && !b[2].disabled) b[2].focus();
          b[0].disabled = b[1];
        });
      };
      var go = function (step) {
        var i = Math.max(0, Math.min(items.length - 1, current() + step));
        list.scrollTo({ left: items[i].offsetLeft, behavior: still ? 'auto' : 'smooth' });
      };
      prev.addEventListener('click', function () { go(-1); });
      next.addEventListener('click', function () { go(1); });
      var queued = false;
      var later = function () {
        if (queued) return;
        queued = true;
        window.requestAnimationFrame(function () { queued = false; update(); });
      };
      list.addEventListener('scroll', later, { passive: true });
      window.addEventListener('resize', later);
      update();
    }

    var full = wrap.querySelector('.gallery-full');
    var dialog = document.getElementById('lightbox');
    if (!full || !dialog || typeof dialog.showModal !== 'function') return;
    var img = dialog.querySelector('.lb-img');
    var count = dialog.querySelector('.lb-count');
    var status = dialog.querySelector('[data-lb-status]');
    var shown = 0, opener = null;
    function show(i) {
      shown = (i + items.length) % items.length;
      var photo = items[shown].querySelector('img');
      img.src = photo.currentSrc || photo.src;
      img.alt = photo.alt;
      count.textContent = (shown + 1) + ' / ' + items.length;
      status.textContent = items.length > 1 ? photo.alt : '';
    }
    function open(i, from) {
      opener = from;
      status.textContent = '';
      show(i);
      dialog.showModal();
    }
    full.hidden = false;
    wrap.classList.add('enlarges');
    full.addEventListener('click', function () { open(current(), full); });
    list.addEventListener('click', function (e) {
      var li = e.target.closest && e.target.closest('li');
      if (li) open(Array.prototype.indexOf.call(items, li), full);
    });
    list.addEventListener('keydown', function (e) {
      if (e.key === 'Enter') { e.preventDefault(); open(current(), list); }
    });
    Array.prototype.forEach.call(dialog.querySelectorAll('[data-step]'), function (b) {
      b.addEventListener('click', function () { show(shown + Number(b.getAttribute('data-step'))); });
    });
    dialog.querySelector('.lb-close').addEventListener('click', function () { dialog.close(); });
    dialog.addEventListener('keydown', function (e) {
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        e.preventDefault();
        show(shown + (e.key === 'ArrowLeft' ? -1 : 1));
      }
    });
    // A click beside the photo (on the dark around it) closes, as on most sites.
    dialog.addEventListener('click', function (e) {
      if (e.target === dialog || (e.target.classList && e.target.classList.contains('lb-stage'))) dialog.close();
    });
    var x0 = null, y0 = 0;
    dialog.addEventListener('touchstart', function (e) {
      x0 = e.touches.length === 1 ? e.touches[0].clientX : null;
      y0 = e.touches.length === 1 ? e.touches[0].clientY : 0;
    }, { passive: true });
    dialog.addEventListener('touchend', function (e) {
      if (x0 === null || items.length < 2) return;
      var dx = e.changedTouches[0].clientX - x0, dy = e.changedTouches[0].clientY - y0;
      x0 = null;
      if (Math.abs(dx) > 50 && Math.abs(dx) > Math.abs(dy)) show(shown + (dx < 0 ? 1 : -1));
    }, { passive: true });
    dialog.addEventListener('close', function () {
      list.scrollTo({ left: items[shown].offsetLeft, behavior: 'auto' });
      img.removeAttribute('src');
      if (opener) opener.focus();
    });
  });

  var box = document.getElementById('c-message');
  var counter = document.getElementById('c-message-count');
  var over = document.getElementById('c-message-over');
  if (box && counter && over) {
    var max = Number(box.getAttribute('data-max'));
    var group = function (n) { return String(n).replace(/\\B(?=(\\d{3})+(?!\\d))/g, '\\u00a0'); };
    // The server's own words under the box already say it is too long (the page of a refused sending).
    var wasOver = !!document.getElementById('c-message-err');
    var count = function () {
      // As the server counts: line breaks as one character, spaces at the ends left out.
      var n = box.value.replace(/\\r\\n?/g, '\\n').trim().length;
      var isOver = n > max;
      counter.textContent = group(n) + ' / ' + group(max);
      counter.classList.toggle('too-long', isOver);
      if (isOver !== wasOver) over.textContent = isOver ? over.getAttribute('data-text') : '';
      wasOver = isOver;
    };
    counter.hidden = false;
    box.addEventListener('input', count);
    count();
  }
})();
`;

/** Its address, named by its content: a changed script is a new address, so it can be kept for a year. */
export const GALLERY_SCRIPT_VERSION = createHash('sha256').update(GALLERY_SCRIPT).digest('base64url').slice(0, 12);
export const GALLERY_SCRIPT_URL = `/listings/gallery.js?v=${GALLERY_SCRIPT_VERSION}`;
