import {
  createRegion,
  deleteRegion,
  listRegions,
  REGIONS_EDIT,
  REGIONS_READ,
  updateRegion,
  ZRegionCreate,
  ZRegionDelete,
  ZRegionUpdate,
} from '~/core/regions/region.service';
import { asSent, defineCall, type ApiCall } from '../define-call';
import { z } from 'zod';

/** The regions register (issue 36 item 4; decision 067), beside the departments under /instance. */
export const regionCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/instance/regions',
    access: REGIONS_READ,
    input: z.object({}),
    summary: 'The regions {regions: [{name, active, users, objects, projects}]}, active first',
    handler: async (ctx) => ({ regions: await listRegions(ctx) }),
  }),
  defineCall({
    method: 'POST',
    path: '/instance/regions',
    access: REGIONS_EDIT,
    input: asSent(ZRegionCreate),
    summary: 'Adds a region {name} (409 REGION_NAME_TAKEN when the name exists, whatever its case)',
    handler: (ctx, input) => createRegion(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/instance/regions',
    access: REGIONS_EDIT,
    input: asSent(ZRegionUpdate),
    summary: 'Renames {name, newName} and/or (de)activates {name, active} a region; a rename reaches every user, object and project',
    handler: (ctx, input) => updateRegion(ctx, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/instance/regions',
    access: REGIONS_EDIT,
    input: asSent(ZRegionDelete),
    summary: 'Deletes a region ?name= nothing uses (409 REGION_IN_USE otherwise: deactivate it)',
    async handler(ctx, input) {
      await deleteRegion(ctx, input);
      return {};
    },
  }),
];
