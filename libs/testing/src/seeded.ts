/**
 * A seeded pseudo-random source for generated (hostile) requests: the same seed gives the same run,
 * so a failure repeats. mulberry32; numbers in [0, 1).
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One of `xs`, drawn from `random`. */
export function pickWith<T>(random: () => number, xs: readonly T[]): T {
  return xs[Math.floor(random() * xs.length)];
}
