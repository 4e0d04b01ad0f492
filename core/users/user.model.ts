import { BaseModel } from '~/core/db/base-model';

export class UserModel extends BaseModel {
  static override tableName = 'users';
  static override get jsonAttributes() {
    return ['configuration'];
  }

  id!: string;
  email!: string;
  name!: string;
  shortName!: string | null;
  phone!: string | null;
  language!: string | null;
  status!: 'active' | 'inactive' | 'registered';
  userType!: 'normal' | 'super';
  passwordHash!: string | null;
  configuration!: Record<string, unknown>;
  createdAt!: Date;
  updatedAt!: Date;
}
