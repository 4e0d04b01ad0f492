/**
 * The map tab's tile server: a URL template in Leaflet's form (`{z}`, `{x}`, `{y}`, optionally
 * `{s}` for subdomains and `{r}` for retina) and the attribution its terms require. Pure and
 * without zod: the settings form, the service and the environment's check read it.
 */
export interface MapTiles {
  url: string;
  attribution: string;
}

/** OpenStreetMap's own tile server, whose usage policy asks for this attribution. */
export const OSM_TILES: MapTiles = {
  url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  attribution: '© OpenStreetMap contributors',
};

/**
 * Whether `url` is a usable tile template: http or https, and {z}, {x} and {y} each present.
 * Anything else would fetch the same picture for every tile, or nothing.
 */
export function isTileTemplate(url: string): boolean {
  if (!['{z}', '{x}', '{y}'].every((p) => url.includes(p))) return false;
  try {
    // the placeholders are not valid in every URL part (a port, say): check with numbers in them
    const probe = new URL(url.replace(/\{[a-z]+\}/gi, '1'));
    return probe.protocol === 'https:' || probe.protocol === 'http:';
  } catch {
    return false;
  }
}
