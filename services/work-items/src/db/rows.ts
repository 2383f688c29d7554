/** The two timestamps every table of this service keeps, as a row holds them. */
export interface RowTimestamps {
  created_at: Date;
  updated_at: Date;
}

/** `snake_case` → `camelCase`, as a type. */
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** A row type with its snake_case keys in camelCase: the domain type a store maps a row to. */
export type Camelized<R> = { [K in keyof R as CamelCase<K & string>]: R[K] };

/** Column names seen so far, camelized once (the set of column names is small and fixed). */
const camelKeys = new Map<string, string>();

/** A snake_case key (a column name) in camelCase. */
export function camelKey(key: string): string {
  let out = camelKeys.get(key);
  if (out === undefined) {
    out = key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    if (camelKeys.size < 10_000) camelKeys.set(key, out);
  }
  return out;
}

/** A row with its snake_case keys in camelCase; values as they are. */
export function camelize<R extends object>(row: R): Camelized<R> {
  const out: Record<string, unknown> = {};
  for (const k in row) if (Object.prototype.hasOwnProperty.call(row, k)) out[camelKey(k)] = row[k];
  return out as Camelized<R>;
}

/** A camelized row whose timestamps are Dates (rows built as JSON carry them as text). */
export type Dated<R> = Omit<Camelized<R>, 'createdAt' | 'updatedAt'> & { createdAt: Date; updatedAt: Date };

/** `camelize`, with `created_at` and `updated_at` parsed to Dates whether read as Dates or as JSON text. */
export function camelizeDated<R extends { created_at: Date | string; updated_at: Date | string }>(row: R): Dated<R> {
  return { ...camelize(row), createdAt: new Date(row.created_at), updatedAt: new Date(row.updated_at) } as Dated<R>;
}
