import fs from 'node:fs';
import path from 'node:path';
import { loadSharp, THUMB_WIDTH, WEB_SIZE } from '../../modules/files/pictures.ts';

/**
 * The demo's photos, drawn here rather than downloaded: simple pictures of a block of flats, a
 * house, a villa with its pool, a shop front, a plot with olive trees and rooms inside, in a few
 * colourings each. Made once per data directory (a few hundred kilobytes); every demo photo row
 * shares one of them.
 */
export type Scene = 'block' | 'house' | 'villa' | 'shop' | 'land' | 'room' | 'kitchen';

/** Drawn on a 1200×800 canvas, stored at 960×640 (a demo needs no more). */
const W = 1200;
const H = 800;
const OUT_W = 960;
const OUT_H = 640;

const FACADES = ['#e9dcc3', '#f1e4d0', '#d9c7a7', '#e7d3c1', '#cfd8dc', '#f3ead8'];
const ACCENTS = ['#7a8b99', '#8d6e63', '#5d7b6f', '#a1887f', '#6d7f91', '#b08d57'];

const sky = (top: string, bottom: string) =>
  `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient></defs><rect width="${W}" height="${H}" fill="url(#sky)"/>`;
const sun = (x: number, y: number) => `<circle cx="${x}" cy="${y}" r="46" fill="#fff3c4" opacity="0.9"/>`;
const tree = (x: number, y: number, s = 1) =>
  `<rect x="${x - 8 * s}" y="${y - 60 * s}" width="${16 * s}" height="${60 * s}" fill="#6d4c41"/><ellipse cx="${x}" cy="${y - 95 * s}" rx="${55 * s}" ry="${60 * s}" fill="#5b7f3a"/><ellipse cx="${x + 25 * s}" cy="${y - 80 * s}" rx="${35 * s}" ry="${40 * s}" fill="#6f9445"/>`;
const olive = (x: number, y: number) =>
  `<rect x="${x - 6}" y="${y - 40}" width="12" height="40" fill="#5d4037"/><ellipse cx="${x}" cy="${y - 62}" rx="48" ry="34" fill="#7d8f5a"/><ellipse cx="${x - 18}" cy="${y - 70}" rx="26" ry="20" fill="#8fa06a"/>`;

function windowGrid(x0: number, y0: number, cols: number, rows: number, w: number, h: number, gx: number, gy: number, balcony: string) {
  let s = '';
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x = x0 + c * (w + gx);
      const y = y0 + r * (h + gy);
      s += `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="#9ec3dc" stroke="#ffffff" stroke-width="4"/>`;
      s += `<line x1="${x + w / 2}" y1="${y}" x2="${x + w / 2}" y2="${y + h}" stroke="#ffffff" stroke-width="3"/>`;
    }
    s += `<rect x="${x0 - 14}" y="${y0 + r * (h + gy) + h}" width="${cols * (w + gx) - gx + 28}" height="10" fill="${balcony}"/>`;
    s += `<rect x="${x0 - 14}" y="${y0 + r * (h + gy) + h - 34}" width="${cols * (w + gx) - gx + 28}" height="4" fill="${balcony}"/>`;
  }
  return s;
}

function draw(scene: Scene, v: number): string {
  const facade = FACADES[v % FACADES.length]!;
  const accent = ACCENTS[(v * 2 + 1) % ACCENTS.length]!;
  switch (scene) {
    case 'block':
      return `${sky('#7fb2e5', '#d6ebfa')}${sun(1050 - v * 90, 120)}
        <rect x="0" y="690" width="${W}" height="110" fill="#9e9e9e"/><rect x="0" y="680" width="${W}" height="14" fill="#bdbdbd"/>
        <rect x="230" y="${130 + v * 20}" width="740" height="${560 - v * 20}" fill="${facade}"/>
        <rect x="220" y="${118 + v * 20}" width="760" height="16" fill="${accent}"/>
        ${windowGrid(280, 180 + v * 20, 5, 5 - (v % 2), 90, 70, 42, 32, accent)}
        <rect x="540" y="600" width="120" height="90" fill="#5d4037"/><rect x="548" y="608" width="104" height="82" fill="#8d6e63"/>
        ${tree(120, 690, 1.2)}${tree(1090, 690, 1)}`;
    case 'house':
      return `${sky('#8cc0ea', '#e3f2fd')}${sun(180 + v * 120, 110)}
        <rect x="0" y="620" width="${W}" height="180" fill="#7cb342"/>
        <polygon points="300,330 600,170 900,330" fill="#b5533c"/>
        <rect x="330" y="330" width="540" height="320" fill="${facade}"/>
        ${windowGrid(380, 380, 3, 2, 90, 80, 70, 60, accent)}
        <rect x="560" y="540" width="80" height="110" fill="${accent}"/>
        <rect x="0" y="640" width="${W}" height="12" fill="#e0e0e0"/>
        ${tree(170, 650, 1.3)}${tree(1030, 650, 1.1)}`;
    case 'villa':
      return `${sky('#64b5f6', '#e1f5fe')}${sun(1000, 120)}
        <rect x="0" y="360" width="${W}" height="140" fill="${v % 2 ? '#1e88e5' : '#039be5'}"/>
        <rect x="0" y="500" width="${W}" height="300" fill="#f5f1e6"/>
        <rect x="250" y="300" width="700" height="230" fill="#fafafa"/><rect x="230" y="290" width="740" height="18" fill="${accent}"/>
        <rect x="290" y="340" width="280" height="150" fill="#90caf9" stroke="#ffffff" stroke-width="6"/>
        <rect x="620" y="340" width="280" height="150" fill="#90caf9" stroke="#ffffff" stroke-width="6"/>
        <rect x="200" y="590" width="800" height="150" rx="10" fill="#4fc3f7"/><rect x="200" y="590" width="800" height="18" fill="#b3e5fc"/>
        ${olive(110, 560)}${olive(1110, 560)}`;
    case 'shop':
      return `${sky('#90a4ae', '#eceff1')}
        <rect x="0" y="0" width="${W}" height="700" fill="${facade}"/>
        ${windowGrid(120, 60, 6, 2, 110, 100, 72, 60, accent)}
        <rect x="80" y="420" width="1040" height="280" fill="#37474f"/>
        <polygon points="70,400 1130,400 1100,470 100,470" fill="${['#c62828', '#2e7d32', '#1565c0', '#ef6c00'][v % 4]}"/>
        <rect x="120" y="480" width="600" height="210" fill="#b0bec5" opacity="0.9"/><rect x="780" y="480" width="140" height="210" fill="#546e7a"/>
        <rect x="0" y="700" width="${W}" height="100" fill="#bdbdbd"/>`;
    case 'land':
      return `${sky('#81d4fa', '#f1f8e9')}${sun(220 + v * 200, 110)}
        <polygon points="0,420 300,300 620,400 900,280 1200,380 1200,480 0,480" fill="#90a4ae" opacity="0.7"/>
        ${v % 2 ? `<rect x="0" y="430" width="${W}" height="60" fill="#29b6f6"/>` : ''}
        <rect x="0" y="480" width="${W}" height="320" fill="${['#c5b358', '#9ccc65', '#d4c27a'][v % 3]}"/>
        ${[160, 420, 700, 980].map((x, i) => olive(x + (v * 37) % 60, 640 + (i % 2) * 70)).join('')}`;
    case 'room':
      return `<rect width="${W}" height="${H}" fill="${['#f5f0e8', '#eef2f3', '#f7efe6', '#f0ece4'][v % 4]}"/>
        <rect x="0" y="600" width="${W}" height="200" fill="${['#c8a27a', '#d7ccc8', '#bcaaa4', '#e0d6c4'][v % 4]}"/>
        <rect x="700" y="140" width="360" height="330" fill="#bbdefb" stroke="#ffffff" stroke-width="14"/>
        <line x1="880" y1="140" x2="880" y2="470" stroke="#ffffff" stroke-width="10"/>
        <rect x="140" y="470" width="460" height="140" rx="20" fill="${accent}"/><rect x="120" y="430" width="500" height="70" rx="26" fill="${accent}" opacity="0.85"/>
        <rect x="300" y="640" width="260" height="30" fill="#8d6e63"/><rect x="240" y="200" width="200" height="140" fill="#ffe0b2" stroke="#8d6e63" stroke-width="8"/>
        <ellipse cx="1090" cy="600" rx="30" ry="10" fill="#6d4c41"/><rect x="1080" y="520" width="20" height="80" fill="#6d4c41"/><ellipse cx="1090" cy="500" rx="45" ry="55" fill="#66bb6a"/>`;
    case 'kitchen':
      return `<rect width="${W}" height="${H}" fill="${['#fafafa', '#f3f6f4', '#fbf6ef'][v % 3]}"/>
        <rect x="0" y="640" width="${W}" height="160" fill="#bcaaa4"/>
        <rect x="100" y="120" width="1000" height="160" fill="${accent}"/>
        ${[0, 1, 2, 3, 4].map((i) => `<rect x="${110 + i * 200}" y="130" width="180" height="140" fill="${accent}" stroke="#ffffff" stroke-width="4"/>`).join('')}
        <rect x="100" y="420" width="1000" height="40" fill="#eeeeee"/><rect x="100" y="460" width="1000" height="180" fill="${accent}"/>
        <rect x="500" y="330" width="200" height="90" fill="#b3e5fc" stroke="#ffffff" stroke-width="8"/>
        <rect x="820" y="400" width="160" height="24" fill="#424242"/>`;
  }
}

export const SCENE_VARIANTS: Record<Scene, number> = { block: 4, house: 3, villa: 3, shop: 2, land: 3, room: 4, kitchen: 2 };

export type DemoPhoto = { scene: Scene; variant: number; original: string; thumb: string; web: string; size: number; width: number; height: number };

/** The shared demo pictures under `dir` (made when missing): original JPEG, thumbnail and screen size. */
export async function demoPhotos(dir: string): Promise<DemoPhoto[]> {
  await fs.promises.mkdir(dir, { recursive: true });
  const jobs: Promise<DemoPhoto>[] = [];
  for (const [scene, n] of Object.entries(SCENE_VARIANTS) as [Scene, number][]) {
    for (let v = 0; v < n; v++) {
      jobs.push(
        (async () => {
          const base = path.join(dir, `${scene}-${v}`);
          const original = `${base}.jpg`;
          const thumb = `${base}-thumb.webp`;
          const web = `${base}-web.webp`;
          if (!fs.existsSync(web)) {
            const sharp = await loadSharp();
            const raster = await sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${OUT_W}" height="${OUT_H}" viewBox="0 0 ${W} ${H}">${draw(scene, v)}</svg>`))
              .raw()
              .toBuffer({ resolveWithObject: true });
            const img = () => sharp(raster.data, { raw: raster.info });
            await img().jpeg({ quality: 82 }).toFile(original);
            await img().resize({ width: THUMB_WIDTH }).webp({ quality: 74 }).toFile(thumb);
            await img().resize({ width: WEB_SIZE, height: WEB_SIZE, fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 }).toFile(web);
          }
          return { scene, variant: v, original, thumb, web, size: (await fs.promises.stat(original)).size, width: OUT_W, height: OUT_H };
        })(),
      );
    }
  }
  return Promise.all(jobs);
}
