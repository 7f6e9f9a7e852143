import type { TPortalChannelCreate, TPortalChannelUpdate, TPortalKind } from '@crm/contract';
import { PORTAL } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';

/** The portals a channel can feed (decision 083), in the order the form offers them. */
export const PORTAL_KIND_CHOICES: readonly TPortalKind[] = ['spitogatos', 'xe', 'indomio', 'kyero'];

/** The portal channels' calls (decision 083), for the settings. */
export const portalChannelsQuery = () => ({
  queryKey: ['portalChannels'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => call(PORTAL.calls.list, {}, { signal }),
});
export const createPortalChannel = (body: TPortalChannelCreate) => call(PORTAL.calls.create, { body });
export const updatePortalChannel = (id: number, body: TPortalChannelUpdate) => call(PORTAL.calls.update, { params: { id }, body });
export const deletePortalChannel = (id: number, version: number) => call(PORTAL.calls.remove, { params: { id }, query: { version } });
