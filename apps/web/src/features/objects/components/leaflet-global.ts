// Leaflet as the global `L`: the marker-cluster plugin (a script of the Leaflet 1 era) extends the
// global. Imported before the plugin, so the plugin finds it.
import L from 'leaflet';

(globalThis as unknown as { L: typeof L }).L = L;
export default L;
