import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { MessageChannel, Worker, type WorkerOptions } from 'node:worker_threads';
import type { Md5Answer, Md5ThreadData } from './md5-worker-thread';

/**
 * MD5 on a worker thread: the slowest of the three digests runs beside SHA-1 and SHA-256 on the main
 * thread instead of after them. Bytes go over in 256 KiB batches whose buffers are transferred, not
 * copied, and come back with the acknowledgement to be filled again; at most `MAX_IN_FLIGHT`
 * batches are out, so memory stays bounded and nothing is allocated per batch. Given a file
 * descriptor, a second worker writes each hashed batch at its offset (`pwrite`) before it comes
 * back, so a received body reaches the disk without a trip through libuv's thread pool per chunk,
 * and without the writing waiting behind the hashing (`md5-worker-thread.ts`).
 */

/** Batch size of the bytes sent to the workers. */
export const MD5_BATCH = 256 * 1024;
const MAX_IN_FLIGHT = 8;

/** The hasher and the writer: started together, and replaced together when either is lost. */
interface Pair {
  hasher: Worker;
  writer: Worker;
}

interface Waiter {
  /** The workers the job's batches go to. */
  pair: Pair;
  acks: () => void;
  done: (hex: string) => void;
  fail: (e: Error) => void;
}

let workers: Pair | null = null;
let nextId = 1;
const waiting = new Map<number, Waiter>();
/** Batch buffers handed back by the workers, reused by any digest. */
const spare: ArrayBuffer[] = [];

function batchBuffer(): Buffer {
  const b = spare.pop();
  return b ? Buffer.from(b) : Buffer.allocUnsafeSlow(MD5_BATCH);
}

/**
 * A worker is gone: new ones are started for the next job, and every job of these fails once both
 * are stopped, so that no write of a failed job runs after its owner is told (and closes the
 * descriptor). Until then its batches go to the stopping workers, which drop them.
 */
function lost(pair: Pair, e: Error): void {
  if (workers !== pair) return;
  workers = null;
  void Promise.all([pair.hasher.terminate(), pair.writer.terminate()])
    .catch(() => undefined)
    .then(() => {
      for (const [id, w] of [...waiting]) {
        if (w.pair !== pair) continue;
        waiting.delete(id);
        w.fail(e);
      }
    });
}

/** Stops waiting for a job's answer: the workers hold the process open only while some job waits. */
function forget(id: number): void {
  waiting.delete(id);
  if (waiting.size === 0) {
    workers?.hasher.unref();
    workers?.writer.unref();
  }
}

function onReply(m: Md5Answer): void {
  if (m.data && spare.length < MAX_IN_FLIGHT) spare.push(m.data);
  const waiter = waiting.get(m.id);
  if (!waiter) return;
  if (m.ack) return waiter.acks();
  forget(m.id);
  if (m.hex !== undefined) waiter.done(m.hex);
  else waiter.fail(new Error(m.dropped ? 'digest abandoned' : `could not write the body: ${m.error}`));
}

/**
 * Starts the thread module as `data.role`. Built, it is `md5-worker-thread.js` beside this file (in
 * the bundle: beside the bundle) and runs as it is. From source, it is TypeScript, which a worker
 * thread loads through tsx's CommonJS hooks: required first by a bootstrap, because a worker does not
 * get the transform of the code that starts it (jest's), and the hooks cannot go in `execArgv`, which
 * refuses the process's own flags (the gateway's `--expose-gc`).
 */
/** tsx's hooks, a development dependency: named through a constant so a bundle does not list it as one of its imports. */
const TS_HOOKS = 'tsx/cjs';

function startThread(data: Md5ThreadData, options: WorkerOptions): Worker {
  const built = path.join(__dirname, 'md5-worker-thread.js');
  if (existsSync(built)) return new Worker(built, { ...options, workerData: data });
  const source = path.join(__dirname, 'md5-worker-thread.ts');
  const bootstrap = `require(${JSON.stringify(require.resolve(TS_HOOKS))}); require(${JSON.stringify(source)});`;
  return new Worker(bootstrap, { ...options, eval: true, workerData: data });
}

function shared(): Pair {
  if (workers) return workers;
  // Small heaps: the workers only hold hash states and the batches passing through.
  const resourceLimits = { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16 };
  const { port1, port2 } = new MessageChannel();
  const writer = startThread({ role: 'writer', hasher: port2 }, { resourceLimits, transferList: [port2] });
  const hasher = startThread({ role: 'hasher', writer: port1 }, { resourceLimits, transferList: [port1] });
  const pair = { hasher, writer };
  workers = pair;
  for (const [name, w] of Object.entries(pair)) {
    w.on('message', onReply);
    w.on('error', (e) => lost(pair, e));
    w.on('exit', (code) => lost(pair, new Error(`the MD5 ${name} exited (${code})`)));
    // last: a listener added after it would hold the process open (a job waiting refs it again)
    w.unref();
  }
  return pair;
}

/**
 * An MD5 computed on the shared workers, fed in order. Bytes are held by reference until a whole batch
 * has arrived, so an input smaller than one batch never leaves the calling thread and costs no batch
 * buffer (unless it is to be written); from the first full batch on they are copied into transferred
 * batch buffers. With `fd`, the bytes are written there from offset 0, each batch once hashed.
 */
export class OffloadedMd5 {
  private readonly id = nextId++;
  /** Chunks held (not copied) until they add up to a batch. */
  private held: Buffer[] = [];
  private heldBytes = 0;
  private inFlight = 0;
  /** Where the next batch goes in the file. */
  private position = 0;
  private resume: (() => void) | null = null;
  private readonly result: Promise<string>;
  private finish!: (hex: string) => void;
  private failure: Error | null = null;
  private reject!: (e: Error) => void;
  private settled = false;
  /** The workers this digest's batches go to, from its first batch on (null: none sent yet). */
  private pair: Pair | null = null;

  constructor(private readonly fd?: number) {
    this.result = new Promise<string>((resolve, reject) => {
      this.finish = resolve;
      this.reject = reject;
    });
    this.result.catch(() => undefined);
  }

  /** Whether this digest failed (a write failed, or a worker died). */
  get failed(): Error | null {
    return this.failure;
  }

  private register(): Pair {
    const pair = shared();
    // a job waiting for the workers keeps the process alive, as a pending read or write would
    pair.hasher.ref();
    pair.writer.ref();
    waiting.set(this.id, {
      pair,
      acks: () => {
        this.inFlight--;
        this.wake();
      },
      done: (hex) => {
        this.settled = true;
        this.finish(hex);
      },
      fail: (e) => {
        this.settled = true;
        this.failure = e;
        this.reject(e);
        this.wake();
      },
    });
    return pair;
  }

  private wake(): void {
    if ((this.inFlight < MAX_IN_FLIGHT || this.failure) && this.resume) {
      const r = this.resume;
      this.resume = null;
      r();
    }
  }

  /** Adds bytes; resolves when more may be added (the workers are at most a few batches behind). */
  update(chunk: Buffer): Promise<void> | void {
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    while (this.heldBytes >= MD5_BATCH) this.send(false, MD5_BATCH);
    if (this.inFlight >= MAX_IN_FLIGHT && !this.failure) return new Promise((r) => (this.resume = r));
  }

  /** Copies `n` held bytes (all of them when fewer) into a batch buffer and posts it. */
  private send(end: boolean, n: number): void {
    this.pair ??= this.register();
    const batch = batchBuffer();
    let used = 0;
    while (used < n && this.held.length) {
      const head = this.held[0];
      const take = Math.min(head.length, n - used);
      head.copy(batch, used, 0, take);
      used += take;
      if (take === head.length) this.held.shift();
      else this.held[0] = head.subarray(take);
    }
    this.heldBytes -= used;
    const data = batch.buffer as ArrayBuffer;
    const message = this.fd === undefined ? { id: this.id, data, len: used, end } : { id: this.id, data, len: used, end, fd: this.fd, pos: this.position };
    this.position += used;
    this.pair.hasher.postMessage(message, [data]);
    if (!end) this.inFlight++;
  }

  /** The hex digest of everything added (written, with a descriptor). */
  digest(): Promise<string> {
    if (!this.pair && this.fd === undefined) {
      const h = createHash('md5');
      for (const c of this.held) h.update(c);
      this.held = [];
      return Promise.resolve(h.digest('hex'));
    }
    if (!this.failure) this.send(true, this.heldBytes);
    return this.result;
  }

  /**
   * Forgets an abandoned digest. Resolves once the workers can no longer touch the descriptor (they
   * answered the drop, so every batch sent before is done).
   */
  abandon(): Promise<void> {
    this.held = [];
    if (!this.pair || this.settled) {
      forget(this.id);
      return Promise.resolve();
    }
    // workers being stopped fail the job once they are (`lost`): nothing to tell them
    if (this.pair === workers) this.pair.hasher.postMessage({ id: this.id, drop: true, fd: this.fd });
    return this.result.then(
      () => undefined,
      () => undefined,
    );
  }
}

/** Stops the hasher as if it had died (tests): its jobs fail once the writer is stopped too. */
export async function stopHasher(): Promise<void> {
  await workers?.hasher.terminate();
}
