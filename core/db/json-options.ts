/**
 * A scalar subquery answering a table's rows as a JSON array of `{id, name}` in name order: the
 * choices of a filter or a picker, several of them read in one statement
 * (`select ${namedOptionsSql('users', "status <> 'inactive'")} as users, …`). `table` and `where`
 * are SQL written in code, never input.
 */
export function namedOptionsSql(table: 'users' | 'departments' | 'tags', where?: string): string {
  return `(select coalesce(json_agg(json_build_object('id', id, 'name', name) order by lower(name), id), '[]')
     from ${table}${where ? ` where ${where}` : ''})`;
}

/** Active users, for "created by" and "reference person" choices. */
export const ACTIVE_USERS_WHERE = "status <> 'inactive'";
