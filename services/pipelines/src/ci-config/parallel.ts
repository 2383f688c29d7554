/**
 * `parallel:` as GitLab's Entry::Product::Parallel and Normalizer: `parallel: N` makes jobs
 * `name 1/N` … `name N/N`; `parallel: matrix` makes one job per combination, `name: [v1, v2]`, with
 * the combination's variables. `needs` on the original name are expanded to every instance. Pure.
 */
import { Errors, isArrayOfStrings } from './entries';
import type { Need } from './model';
import { isPlainObject } from './yaml-load';

/** Most instances GitLab allows. */
export const MAX_PARALLEL = 200;

/** One instance of a job: its name and the variables it adds. */
export interface Instance {
  name: string;
  variables: Record<string, string>;
}

/** Validates `parallel:` (an integer 1–200 or `{matrix: [...]}`). */
export function checkParallel(errors: Errors, at: string, value: unknown): void {
  if (Number.isInteger(value)) {
    if ((value as number) < 1) errors.add(at, 'config must be greater than or equal to 1');
    if ((value as number) > MAX_PARALLEL) errors.add(at, `config must be less than or equal to ${MAX_PARALLEL}`);
    return;
  }
  if (!isPlainObject(value)) return void errors.list.push(`${at} should be an integer or a hash`);
  errors.unknownKeys(at, value, ['matrix']);
  const matrix = value.matrix;
  if (!Array.isArray(matrix) || !matrix.every(isPlainObject)) return errors.add(`${at}:matrix`, 'config should be an array of hashes');
  const scalarOrList = (v: unknown) => typeof v === 'string' || typeof v === 'number' || isArrayOfStrings(v);
  if (!(matrix as Record<string, unknown>[]).every((entry) => Object.values(entry).every(scalarOrList))) {
    return errors.add(`${at}:matrix:variables_matrix`, 'config should be a hash of key value pairs, value can be an array');
  }
  if (combinations(matrix as Record<string, unknown>[]).length > MAX_PARALLEL) errors.add(`${at}:matrix`, `generates too many jobs (maximum is ${MAX_PARALLEL})`);
}

function combinations(matrix: Record<string, unknown>[]): Record<string, string>[] {
  return matrix.flatMap((entry) => {
    let combos: Record<string, string>[] = [{}];
    for (const [key, raw] of Object.entries(entry)) {
      const values = (Array.isArray(raw) ? raw : [raw]).map(String);
      combos = combos.flatMap((c) => values.map((v) => ({ ...c, [key]: v })));
    }
    return combos;
  });
}

/** The instances a job expands to (itself alone without `parallel`). */
export function instancesOf(name: string, parallel: unknown): Instance[] {
  if (Number.isInteger(parallel) && (parallel as number) > 1) {
    const total = parallel as number;
    return Array.from({ length: total }, (_, i) => ({
      name: `${name} ${i + 1}/${total}`,
      variables: { CI_NODE_INDEX: String(i + 1), CI_NODE_TOTAL: String(total) },
    }));
  }
  if (isPlainObject(parallel) && Array.isArray(parallel.matrix)) {
    const combos = combinations(parallel.matrix as Record<string, unknown>[]);
    return combos.map((vars) => ({ name: `${name}: [${Object.values(vars).join(', ')}]`, variables: vars }));
  }
  return [{ name, variables: {} }];
}

/** Needs with each parallel job's name replaced by all its instances' names. */
export function expandNeeds(needs: Need[] | null, instances: Map<string, string[]>): Need[] | null {
  if (!needs) return needs;
  return needs.flatMap((need) => (instances.get(need.job) ?? [need.job]).map((job) => ({ ...need, job })));
}
