/**
 * Young-generation collections paced by the upload bytes the gateway receives.
 *
 * Node's HTTP server hands each read of a request body (up to 64 KiB) to JavaScript as a new buffer
 * whose memory lives outside V8's heap. Those buffers die young, but the young generation is
 * collected only when its small JavaScript objects fill it: once per ~16–30 MB of body received. In
 * between, the dead buffers count as external memory, and every ~64 MB of it above the last mark
 * V8 starts a full mark of the heap — about one per 28 MB uploaded, ~15% of the gateway's CPU on
 * 1 MB uploads, with up to 70 MB of dead buffers resident. A minor collection every
 * `YOUNG_COLLECTION_BYTES` frees them while they are young, for ~0.3 ms each.
 *
 * It needs `gc` (the gateway runs with `--expose-gc`, `libs/runtime/src/process-env.ts`); without it
 * (tests that start the gateway inside the test runner) nothing is collected early.
 */
export const YOUNG_COLLECTION_BYTES = 4 * 1024 * 1024;

type Collect = (options: { type: 'minor' }) => void;

let received = 0;

/**
 * A `data` listener of a request body: counts its bytes and, every YOUNG_COLLECTION_BYTES, collects
 * the young generation when `gc` is exposed.
 */
export function countChunk(chunk: Buffer): void {
  received += chunk.length;
  if (received < YOUNG_COLLECTION_BYTES) return;
  received = 0;
  (globalThis as { gc?: Collect }).gc?.({ type: 'minor' });
}
