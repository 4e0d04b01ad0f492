import { Model, snakeCaseMappers } from 'objection';

/**
 * The base of every objection model. No knex is bound to it: a model is always queried with the
 * unit of work's transaction, `UserModel.query(ctx.trx)`, so a query can never run outside the
 * tenant's schema. Properties are camelCase, columns snake_case.
 */
export class BaseModel extends Model {
  static override get columnNameMappers() {
    return snakeCaseMappers();
  }
}
