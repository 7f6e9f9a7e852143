import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type Sharp from 'sharp';

/**
 * The image library, loaded with the first picture rather than with the app (0.4 s of start-up). Each
 * picture is read once: libvips' operation cache would only hold memory between uploads.
 */
let loaded: Promise<typeof Sharp> | undefined;
export function loadSharp(): Promise<typeof Sharp> {
  return (loaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  }));
}

/** Width of the thumbnail that lists, cards and the carousel's strip show. */
export const THUMB_WIDTH = 480;
/** Longest side of the screen-size copy the carousel and the full view show. */
export const WEB_SIZE = 1600;
/** A picture larger than this (in pixels) is not decoded: 100 megapixels is past any camera's photo. */
const MAX_PIXELS = 100_000_000;

/** Picture types the thumbnails are made from (the types browsers show, and TIFF). */
export const PICTURE_MIMES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff']);

export type PictureCopies = { thumbPath: string; webPath: string; width: number; height: number };

/**
 * The thumbnail and the screen-size copy of a picture, written as WebP next to `dir`: turned upright
 * by its EXIF orientation, never enlarged, metadata (camera, GPS position) left out. Null when the
 * file cannot be read as a picture (damaged, or a kind the image library cannot decode).
 */
export async function makePictureCopies(source: string, dir: string): Promise<PictureCopies | null> {
  const base = path.join(dir, randomBytes(12).toString('hex'));
  const thumbPath = `${base}-thumb.webp`;
  const webPath = `${base}-web.webp`;
  try {
    const sharp = await loadSharp();
    const image = sharp(source, { limitInputPixels: MAX_PIXELS, failOn: 'error' }).rotate();
    const meta = await image.metadata();
    const turned = (meta.orientation ?? 1) >= 5;
    const width = (turned ? meta.height : meta.width) ?? 0;
    const height = (turned ? meta.width : meta.height) ?? 0;
    if (!width || !height) return null;
    await image.clone().resize({ width: THUMB_WIDTH, withoutEnlargement: true }).webp({ quality: 74 }).toFile(thumbPath);
    await image.clone().resize({ width: WEB_SIZE, height: WEB_SIZE, fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 }).toFile(webPath);
    return { thumbPath, webPath, width, height };
  } catch {
    await fs.promises.rm(thumbPath, { force: true }).catch(() => {});
    await fs.promises.rm(webPath, { force: true }).catch(() => {});
    return null;
  }
}
