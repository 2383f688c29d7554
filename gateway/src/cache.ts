interface Entry<V> {
  value: Promise<V>;
  expires: number;
}

/**
 * A small TTL cache of in-flight-or-settled lookups. Concurrent misses for one key share a single
 * lookup; a failed lookup (identity unreachable) is not kept; negative answers get their own,
 * shorter TTL. Size is bounded: the oldest entries go first.
 */
export class TtlCache<V> {
  private readonly map = new Map<string, Entry<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly negativeTtlMs: number,
    private readonly isNegative: (v: V) => boolean,
    private readonly maxEntries = 20_000,
  ) {}

  /** The cached value for `key`, or the result of `load()` (cached for the applicable TTL). */
  get(key: string, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const hit = this.map.get(key);
    if (hit && hit.expires > now) return hit.value;
    if (hit) this.map.delete(key);
    if (this.ttlMs <= 0) return load();
    const value = load();
    const entry: Entry<V> = { value, expires: now + this.ttlMs };
    this.map.set(key, entry);
    if (this.map.size > this.maxEntries) this.map.delete(this.map.keys().next().value as string);
    value.then(
      (v) => {
        if (this.isNegative(v)) entry.expires = Math.min(entry.expires, Date.now() + this.negativeTtlMs);
      },
      () => {
        if (this.map.get(key) === entry) this.map.delete(key);
      },
    );
    return value;
  }

  /** Drops every entry. */
  clear(): void {
    this.map.clear();
  }

  get size(): number {
    return this.map.size;
  }
}
