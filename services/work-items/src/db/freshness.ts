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

interface Pending<V> {
  value: Promise<V>;
  generation: number;
}

/**
 * A small TTL cache whose entries die with the generation they were computed in. Concurrent
 * misses for one key in one generation share a single load (no thundering herd), and an entry
 * that only aged past its TTL (same generation) is served once more while it reloads in the
 * background, so expensive entries expiring together do not stall requests.
 */
export class GenerationCache<V> {
  private readonly map = new Map<string, Entry<V>>();
  private readonly pending = new Map<string, Pending<V>>();

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
    const inFlight = this.pending.get(key);
    if (hit && hit.generation === gen) {
      if (!inFlight) void this.load(key, gen, now, load, keep).catch(() => undefined);
      return hit.value;
    }
    if (inFlight && inFlight.generation === gen) return inFlight.value;
    return this.load(key, gen, now, load, keep);
  }

  private async load(key: string, gen: number, now: number, load: () => Promise<V>, keep: (v: V) => boolean): Promise<V> {
    const promise = load();
    this.pending.set(key, { value: promise, generation: gen });
    let value: V;
    try {
      value = await promise;
    } finally {
      if (this.pending.get(key)?.value === promise) this.pending.delete(key);
    }
    if (!keep(value)) return value;
    this.map.delete(key);
    if (this.map.size >= this.maxEntries) this.map.delete(this.map.keys().next().value as string);
    this.map.set(key, { value, generation: gen, expires: now + this.ttlMs });
    return value;
  }
}
