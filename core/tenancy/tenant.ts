import type { TInstanceConfig } from '~/core/instance/instance-config';
import type { TenantScope } from '~/core/db/with-tenant';

export type TenantStatus = 'provisioning' | 'active' | 'disabled';

export interface Tenant extends TenantScope {
  slug: string;
  displayName: string;
  status: TenantStatus;
  config: TInstanceConfig;
}
