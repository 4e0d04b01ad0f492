import { setAppModule, ZSetAppModule } from '~/core/modules/app-module.service';
import { asSent, defineCall, type ApiCall } from '../define-call';

export const setAppModuleCall = defineCall({
  method: 'PUT',
  path: '/instance/appmodule',
  access: { permission: 'instance:edit' },
  // The service's schema: an unknown module id is a 400 VALIDATION_FAILED, here and in the service.
  input: asSent(ZSetAppModule),
  summary: 'Switches an app module on or off and sets its configuration {appModuleId, configuration, enabled?}',
  handler: (ctx, input) => setAppModule(ctx, input),
});

/** The app-module calls of the catalogue: PUT /instance/appmodule. */
export const appModuleCalls: ApiCall[] = [setAppModuleCall];
