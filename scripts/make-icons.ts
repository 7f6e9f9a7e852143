// Draws the web app's icons (apps/web/public/icons/*.png) from one SVG, in Chromium:
//   node --import tsx scripts/make-icons.ts
// "any" icons are the rounded tile of favicon.svg; maskable ones (and Apple's touch icon) fill the
// square and keep the house inside the central safe zone (80%), as launchers crop them to a shape.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const out = path.resolve(import.meta.dirname, '../apps/web/public/icons');
const BLUE = '#1971c2';
const HOUSE = 'M6 17 16 8l10 9v8a1 1 0 0 1-1 1h-6v-6h-6v6H7a1 1 0 0 1-1-1z';
const tile = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="${BLUE}"/><path d="${HOUSE}" fill="#fff"/></svg>`;
// The house (20 x 18 units) scaled to 60% of its size around the centre: inside the 80% safe circle.
const fullBleed = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${BLUE}"/><g transform="translate(16 16.5) scale(0.66) translate(-16 -17)"><path d="${HOUSE}" fill="#fff"/></g></svg>`;

const icons: [string, string, number][] = [
  ['icon-192.png', tile, 192],
  ['icon-512.png', tile, 512],
  ['maskable-192.png', fullBleed, 192],
  ['maskable-512.png', fullBleed, 512],
  ['apple-touch-icon.png', fullBleed, 180],
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage();
fs.mkdirSync(out, { recursive: true });
for (const [name, svg, size] of icons) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`);
  await page.screenshot({ path: path.join(out, name), omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
}
await browser.close();
console.log(`Icons written to ${out}`);
