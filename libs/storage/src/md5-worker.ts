import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';

/**
 * MD5 on a worker thread: the slowest of the three digests runs beside SHA-1 and SHA-256 on the main
 * thread instead of after them. Bytes go over in 256 KiB batches whose buffers are transferred, not
 * copied, and come back with the acknowledgement to be filled again; at most `MAX_IN_FLIGHT`
 * batches are out, so memory stays bounded and nothing is allocated per batch. Given a file
 * descriptor, the worker also writes each batch at its offset (`pwrite`), so a received body reaches
 * the disk without a trip through libuv's thread pool per chunk.
 *
 * The worker handles a job's messages in order: once it answered a job's end or drop, it has written
 * everything sent before, so the descriptor may be closed.
 */
const SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { writeSync } = require('node:fs');
const jobs = new Map();
function write(job, bytes, pos) {
  let off = 0;
  while (off < bytes.length) off += writeSync(job.fd, bytes, off, bytes.length - off, pos + off);
}
parentPort.on('message', (m) => {
  let job = jobs.get(m.id);
  if (!job) jobs.set(m.id, (job = { hash: createHash('md5'), fd: m.fd, error: null }));
  if (m.data && !job.error) {
    const bytes = new Uint8Array(m.data, 0, m.len);
    job.hash.update(bytes);
    if (job.fd !== undefined && m.len > 0) {
      try {
        write(job, bytes, m.pos);
      } catch (e) {
        job.error = (e && e.code) || String(e);
      }
    }
  }
  if (m.end || m.drop) {
    jobs.delete(m.id);
    if (m.drop) parentPort.postMessage({ id: m.id, dropped: true, data: m.data }, m.data ? [m.data] : []);
    else if (job.error) parentPort.postMessage({ id: m.id, error: job.error });
    else parentPort.postMessage({ id: m.id, hex: job.hash.digest('hex') });
  } else {
    parentPort.postMessage({ id: m.id, ack: true, data: m.data }, [m.data]);
  }
});
`;

/** Batch size of the bytes sent to the worker. */
export const MD5_BATCH = 256 * 1024;
const MAX_IN_FLIGHT = 8;

interface Waiter {
  acks: () => void;
  done: (hex: string) => void;
  fail: (e: Error) => void;
}

interface Reply {
  id: number;
  ack?: boolean;
  hex?: string;
  error?: string;
  dropped?: boolean;
  data?: ArrayBuffer;
}

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, Waiter>();
/** Batch buffers handed back by the worker, reused by any digest. */
const spare: ArrayBuffer[] = [];

function batchBuffer(): Buffer {
  const b = spare.pop();
  return b ? Buffer.from(b) : Buffer.allocUnsafeSlow(MD5_BATCH);
}

/** Every job still waiting fails: the worker is gone (and a new one is started for the next). */
function lost(e: Error): void {
  worker = null;
  for (const w of [...waiting.values()]) w.fail(e);
  waiting.clear();
}

/** Stops waiting for a job's answer: the worker holds the process open only while some job waits. */
function forget(id: number): void {
  waiting.delete(id);
  if (waiting.size === 0) worker?.unref();
}

function shared(): Worker {
  if (worker) return worker;
  // A small heap: the worker only holds hash states and the batches it is handed back.
  const w = new Worker(SOURCE, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16 } });
  worker = w;
  w.on('message', (m: Reply) => {
    if (m.data && spare.length < MAX_IN_FLIGHT) spare.push(m.data);
    const waiter = waiting.get(m.id);
    if (!waiter) return;
    if (m.ack) return waiter.acks();
    forget(m.id);
    if (m.hex !== undefined) waiter.done(m.hex);
    else waiter.fail(new Error(m.dropped ? 'digest abandoned' : `could not write the body: ${m.error}`));
  });
  w.on('error', (e) => worker === w && lost(e));
  w.on('exit', (code) => worker === w && lost(new Error(`the MD5 worker exited (${code})`)));
  // last: a listener added after it would hold the process open (a job waiting refs it again)
  w.unref();
  return w;
}

/**
 * An MD5 computed on the shared worker, fed in order. Bytes are held by reference until a whole batch
 * has arrived, so an input smaller than one batch never leaves the calling thread and costs no batch
 * buffer (unless it is to be written); from the first full batch on they are copied into transferred
 * batch buffers. With `fd`, the worker writes the bytes there, from offset 0, as it hashes them.
 */
export class OffloadedMd5 {
  private readonly id = nextId++;
  /** Chunks held (not copied) until they add up to a batch. */
  private held: Buffer[] = [];
  private heldBytes = 0;
  private inFlight = 0;
  private sentAny = false;
  /** Where the next batch goes in the file. */
  private position = 0;
  private resume: (() => void) | null = null;
  private readonly result: Promise<string>;
  private finish!: (hex: string) => void;
  private failure: Error | null = null;
  private reject!: (e: Error) => void;
  private settled = false;

  constructor(private readonly fd?: number) {
    this.result = new Promise<string>((resolve, reject) => {
      this.finish = resolve;
      this.reject = reject;
    });
    this.result.catch(() => undefined);
  }

  /** Whether the worker failed this digest (a write failed, or the worker died). */
  get failed(): Error | null {
    return this.failure;
  }

  private register(): void {
    // a job waiting for the worker keeps the process alive, as a pending read or write would
    if (waiting.size === 0) shared().ref();
    waiting.set(this.id, {
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
  }

  private wake(): void {
    if ((this.inFlight < MAX_IN_FLIGHT || this.failure) && this.resume) {
      const r = this.resume;
      this.resume = null;
      r();
    }
  }

  /** Adds bytes; resolves when more may be added (the worker is at most a few batches behind). */
  update(chunk: Buffer): Promise<void> | void {
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    while (this.heldBytes >= MD5_BATCH) this.send(false, MD5_BATCH);
    if (this.inFlight >= MAX_IN_FLIGHT && !this.failure) return new Promise((r) => (this.resume = r));
  }

  /** Copies `n` held bytes (all of them when fewer) into a batch buffer and posts it. */
  private send(end: boolean, n: number): void {
    if (!this.sentAny) this.register();
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
    shared().postMessage(message, [data]);
    this.sentAny = true;
    if (!end) this.inFlight++;
  }

  /** The hex digest of everything added (written, with a descriptor). */
  digest(): Promise<string> {
    if (!this.sentAny && this.fd === undefined) {
      const h = createHash('md5');
      for (const c of this.held) h.update(c);
      this.held = [];
      return Promise.resolve(h.digest('hex'));
    }
    if (!this.failure) this.send(true, this.heldBytes);
    return this.result;
  }

  /**
   * Forgets an abandoned digest. Resolves once the worker can no longer touch the descriptor (it
   * answered the drop, so every batch sent before is done).
   */
  abandon(): Promise<void> {
    this.held = [];
    if (!this.sentAny || this.settled) {
      forget(this.id);
      return Promise.resolve();
    }
    shared().postMessage({ id: this.id, drop: true });
    return this.result.then(
      () => undefined,
      () => undefined,
    );
  }
}
