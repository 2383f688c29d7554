/**
 * A process-wide data generation: every write (any non-GET API request, any applied identity
 * event) moves it, and cached read results remember the generation they were computed in. A
 * cached value is served only in the same generation and within its TTL, so this process never
 * serves a stale value after its own writes, and other replicas' writes show within the TTL.
 */
let generation = 0;

/** The current generation. */
export function currentGeneration(): number {
  return generation;
}

/** Marks that data changed (after a write committed, or before it starts). */
export function bumpGeneration(): void {
  generation++;
}

interface Entry<V> {
  value: V;
  generation: number;
  expires: number;
}

/** A small TTL cache whose entries die with the generation they were computed in. */
export class GenerationCache<V> {
  private readonly map = new Map<string, Entry<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 5000,
  ) {}

  /**
   * The cached value, or `load()`'s, stored with the generation seen when the load started
   * (and only when `keep` accepts it).
   */
  async get(key: string, load: () => Promise<V>, keep: (v: V) => boolean = () => true): Promise<V> {
    if (this.ttlMs <= 0) return load();
    const now = Date.now();
    const hit = this.map.get(key);
    if (hit && hit.generation === generation && hit.expires > now) return hit.value;
    const gen = generation;
    const value = await load();
    if (!keep(value)) return value;
    this.map.delete(key);
    if (this.map.size >= this.maxEntries) this.map.delete(this.map.keys().next().value as string);
    this.map.set(key, { value, generation: gen, expires: now + this.ttlMs });
    return value;
  }
}
