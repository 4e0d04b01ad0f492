import type { Ctx } from '~/core/context';
import type { GeoAddress, GeoPoint } from '~/core/extension-points/geocoder';
import { getRegistry, type Registry } from '~/core/extension-points/registry';
import { geocoderFor } from '~/core/extension-points/tenant-plugins';
import { logger } from '~/core/log/logger';

/** A geocoder gets this long; a slow one must not hold up saving the order. */
export const GEOCODE_TIMEOUT_MS = 3_000;

const valid = (p: GeoPoint | null): p is GeoPoint =>
  Boolean(p) && Number.isFinite(p!.lat) && Number.isFinite(p!.lng) && Math.abs(p!.lat) <= 90 && Math.abs(p!.lng) <= 180;

/**
 * Where an address is, through the tenant's geocoder plugin: null without an address, without a
 * geocoder (the default), when nothing is found, or when the service fails or is slow (logged).
 */
export async function geocodeAddress(
  registry: Registry,
  tenantId: string,
  address: GeoAddress,
): Promise<GeoPoint | null> {
  if (!address.street && !address.postIndex && !address.city) return null;
  const found = await geocoderFor(registry, tenantId);
  if (!found) return null;
  try {
    const point = await found.geocoder.geocode(address, found.options, AbortSignal.timeout(GEOCODE_TIMEOUT_MS));
    return valid(point) ? { lat: Number(point.lat.toFixed(6)), lng: Number(point.lng.toFixed(6)) } : null;
  } catch (e) {
    logger.warn({ err: e, tenantId }, 'geocoding failed; the work order is saved without a position');
    return null;
  }
}

/** Stores the order's position for its address (cleared when the address is gone or not found). */
export async function placeWorkOrder(
  ctx: Ctx,
  id: string,
  address: Omit<GeoAddress, 'country'>,
  registry?: Registry,
): Promise<GeoPoint | null> {
  const hasAddress = Boolean(address.street || address.postIndex || address.city);
  const point = hasAddress
    ? await geocodeAddress(registry ?? getRegistry(), ctx.tenant.id, { ...address, country: ctx.tenant.config.country })
    : null;
  await ctx
    .trx('work_orders')
    .where({ id })
    .update({ location_lat: point?.lat ?? null, location_lng: point?.lng ?? null });
  return point;
}
