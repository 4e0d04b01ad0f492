import type { z } from 'zod';
import type { PluginBase } from './plugin';

/** An address to place on the map (the work order's, spec section 3). */
export interface GeoAddress {
  street: string | null;
  postIndex: string | null;
  city: string | null;
  /** ISO country of the tenant (SE, EE, LV, …). */
  country: string;
}

export interface GeoPoint {
  lat: number;
  lng: number;
}

/**
 * The contract a geocoding service implements (issue 5: the work order's address is geocoded
 * through a pluggable geocoder; none is configured by default). Answers null when the address
 * is not found; throws when the service fails (the caller logs it and saves without a position).
 */
export interface Geocoder {
  geocode(address: GeoAddress, tenantOptions: unknown, signal: AbortSignal): Promise<GeoPoint | null>;
}

export type GeocoderDefinition<O = unknown> = PluginBase<'geocoder', O, Geocoder> & { displayName: string };

export function defineGeocoder<O>(def: {
  id: string;
  displayName: string;
  options: z.ZodType<O>;
  tenantOptions?: z.ZodType<unknown>;
  create(options: O): Geocoder;
}): GeocoderDefinition<O> {
  return { kind: 'geocoder', ...def };
}
