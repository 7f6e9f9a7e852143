import { Box, Image } from '@mantine/core';
import { useState } from 'react';
import { FILE, urlOf } from '@crm/contract/resources';
import { IconPhoto } from '../../../components/icons.ts';

/** A photo of the object; the original's pixel size and bytes when known ("Open original" says them). */
export type TPhoto = { id: number; name: string; width?: number | null; height?: number | null; size?: number };

/** Which copy: a small thumbnail (lists, strips), the screen-size copy (carousel), or the original ("Open original" links it under its own name, fileUrl). */
type PhotoSize = 'thumb' | 'web' | 'original';
export const photoUrl = (id: number, size: PhotoSize = 'thumb') => urlOf(FILE.calls.get, { params: { systemName: String(id) }, query: size === 'original' ? {} : { size } });

/**
 * One photo, filling its box (cover) or shown whole (contain). A plain <img>: the browser sends
 * the session's file cookie, so no token is in the address and the browser caches the copy.
 */
export function Photo({ id, alt, fit = 'cover', h, size = 'thumb' }: { id: number; alt: string; fit?: 'cover' | 'contain'; h?: number | string; size?: PhotoSize }) {
  const [failed, setFailed] = useState(false);
  if (failed)
    return (
      <Box h={h} style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', background: 'var(--mantine-color-gray-1)', width: '100%' }}>
        <IconPhoto size={28} color="var(--mantine-color-gray-6)" {...(alt ? { role: 'img', 'aria-label': alt } : { 'aria-hidden': true })} />
      </Box>
    );
  return <Image src={photoUrl(id, size)} alt={alt} fit={fit} h={h} w="100%" loading="lazy" onError={() => setFailed(true)} data-testid="photo-img" />;
}
