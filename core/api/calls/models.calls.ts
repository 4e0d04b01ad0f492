import { z } from 'zod';
import {
  createModel,
  deleteModel,
  getModel,
  listModels,
  updateModel,
  ZCreateModel,
  ZModelList,
  ZUpdateModel,
} from '~/core/models/model.service';
import { asSent, defineCall, type ApiCall } from '../define-call';

const id = z.object({ id: z.string() });

/** The models calls of the catalogue (api-calls.md "Models"). The inputs are the services' schemas; the services parse them again. */
export const modelCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/models',
    access: { permission: 'models:read' },
    input: asSent(ZModelList),
    summary:
      'Models by name {models, totalCount}, each with objectCount; ?q searches code and name; ?status, ?offset, ?limit',
    handler: (ctx, input) => listModels(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/models/:id',
    access: { permission: 'models:read' },
    input: id,
    summary: 'One model {model}',
    handler: (ctx, input) => getModel(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/models',
    access: { permission: 'models:edit' },
    input: asSent(ZCreateModel),
    summary: 'Creates a model {model: {code, name}}, always active; returns {id}; 409 DUPLICATE_MODEL_CODE',
    handler: (ctx, input) => createModel(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/models',
    access: { permission: 'models:edit' },
    input: asSent(ZUpdateModel),
    summary: 'Changes a model {model: {id, code, name, status}}; 409 DUPLICATE_MODEL_CODE',
    async handler(ctx, input) {
      await updateModel(ctx, input);
      return {};
    },
  }),
  defineCall({
    method: 'DELETE',
    path: '/models/:id',
    access: { permission: 'models:delete' },
    input: id,
    summary: 'Deletes a model no object uses; 409 IN_USE otherwise',
    async handler(ctx, input) {
      await deleteModel(ctx, input.id);
      return {};
    },
  }),
];
