import { bumpGeneration, GenerationCache } from '../../src/db/freshness';

describe('GenerationCache', () => {
  it('serves a value within its generation and TTL, reloads after a write', async () => {
    const cache = new GenerationCache<number>(60_000);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('k', load)).toBe(1);
    expect(await cache.get('k', load)).toBe(1);
    bumpGeneration();
    expect(await cache.get('k', load)).toBe(2);
  });

  it('shares one load between concurrent misses', async () => {
    const cache = new GenerationCache<number>(60_000);
    let loads = 0;
    const slow = () => new Promise<number>((r) => setTimeout(() => r(++loads), 20));
    const values = await Promise.all([cache.get('s', slow), cache.get('s', slow), cache.get('s', slow)]);
    expect(values).toEqual([1, 1, 1]);
    expect(loads).toBe(1);
  });

  it('does not keep what `keep` refuses, and caches nothing with a zero TTL', async () => {
    const cache = new GenerationCache<number>(60_000);
    let loads = 0;
    await cache.get('r', async () => ++loads, () => false);
    await cache.get('r', async () => ++loads, () => false);
    expect(loads).toBe(2);
    const off = new GenerationCache<number>(0);
    await off.get('x', async () => ++loads);
    await off.get('x', async () => ++loads);
    expect(loads).toBe(4);
  });

  it('after the TTL serves the old value once more while it reloads in the background', async () => {
    // generous TTL and no sleeps between the last two reads: timing-safe on a loaded machine
    const cache = new GenerationCache<number>(300);
    let loads = 0;
    expect(await cache.get('t', async () => ++loads)).toBe(1);
    await new Promise((r) => setTimeout(r, 350));
    expect(await cache.get('t', async () => ++loads)).toBe(1);
    while (loads < 2) await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(await cache.get('t', async () => ++loads)).toBe(2);
    expect(loads).toBe(2);
  });
});
