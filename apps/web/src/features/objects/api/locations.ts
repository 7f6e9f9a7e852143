// Place search lives with the shared field inputs (a 'location' field anywhere uses it).
export { loadLocationOptions, searchLocations } from '../../../components/fields/location-options.ts';
export type TLocationHit = { id: number; text: string };
