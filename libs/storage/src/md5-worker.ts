import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';

/**
 * MD5 on a worker thread: the slowest of the three digests (≈500 MB/s here) runs beside SHA-1 and
 * SHA-256 on the main thread instead of after them. Bytes go over in 256 KiB batches whose buffers are
 * transferred, not copied, and come back with the acknowledgement to be filled again; at most
 * `MAX_IN_FLIGHT` batches are out, so memory stays bounded and nothing is allocated per batch.
 */
const SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const jobs = new Map();
parentPort.on('message', (m) => {
  let h = jobs.get(m.id);
  if (!h) jobs.set(m.id, (h = createHash('md5')));
  if (m.data) h.update(new Uint8Array(m.data, 0, m.len));
  if (m.end) {
    jobs.delete(m.id);
    parentPort.postMessage({ id: m.id, hex: h.digest('hex') });
  } else if (m.drop) {
    jobs.delete(m.id);
  } else {
    parentPort.postMessage({ id: m.id, ack: true, data: m.data }, [m.data]);
  }
});
`;

/** Batch size of the bytes sent to the worker. */
export const MD5_BATCH = 256 * 1024;
const MAX_IN_FLIGHT = 8;

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, { acks: () => void; done: (hex: string) => void }>();
/** Batch buffers handed back by the worker, reused by any digest. */
const spare: ArrayBuffer[] = [];

function batchBuffer(): Buffer {
  const b = spare.pop();
  return b ? Buffer.from(b) : Buffer.allocUnsafeSlow(MD5_BATCH);
}

function shared(): Worker {
  if (worker) return worker;
  // A small heap: the worker only holds hash states and the batches it is handed back.
  worker = new Worker(SOURCE, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16 } });
  worker.unref();
  worker.on('message', (m: { id: number; ack?: boolean; hex?: string; data?: ArrayBuffer }) => {
    if (m.data && spare.length < MAX_IN_FLIGHT) spare.push(m.data);
    const w = waiting.get(m.id);
    if (!w) return;
    if (m.ack) w.acks();
    else if (m.hex !== undefined) w.done(m.hex);
  });
  worker.on('error', () => {
    worker = null;
  });
  return worker;
}

/**
 * An MD5 computed on the shared worker, fed in order. Bytes are held by reference until a whole batch
 * has arrived, so an input smaller than one batch never leaves the calling thread and costs no batch
 * buffer; from the first full batch on they are copied into transferred batch buffers.
 */
export class OffloadedMd5 {
  private readonly id = nextId++;
  /** Chunks held (not copied) until they add up to a batch. */
  private held: Buffer[] = [];
  private heldBytes = 0;
  private inFlight = 0;
  private sentAny = false;
  private resume: (() => void) | null = null;
  private result: Promise<string> | null = null;
  private finish: ((hex: string) => void) | null = null;

  constructor() {
    this.result = new Promise((resolve) => (this.finish = resolve));
  }

  private register(): void {
    waiting.set(this.id, {
      acks: () => {
        this.inFlight--;
        if (this.inFlight < MAX_IN_FLIGHT && this.resume) {
          const r = this.resume;
          this.resume = null;
          r();
        }
      },
      done: (hex) => {
        waiting.delete(this.id);
        this.finish!(hex);
      },
    });
  }

  /** Adds bytes; resolves when more may be added (the worker is at most a few batches behind). */
  update(chunk: Buffer): Promise<void> | void {
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    while (this.heldBytes >= MD5_BATCH) this.send(false, MD5_BATCH);
    if (this.inFlight >= MAX_IN_FLIGHT) return new Promise((r) => (this.resume = r));
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
    shared().postMessage({ id: this.id, data, len: used, end }, [data]);
    this.sentAny = true;
    if (!end) this.inFlight++;
  }

  /** The hex digest of everything added. */
  digest(): Promise<string> {
    if (!this.sentAny) {
      const h = createHash('md5');
      for (const c of this.held) h.update(c);
      this.held = [];
      return Promise.resolve(h.digest('hex'));
    }
    this.send(true, this.heldBytes);
    return this.result!;
  }

  /** Forgets an abandoned digest. */
  abandon(): void {
    this.held = [];
    waiting.delete(this.id);
    if (this.sentAny) shared().postMessage({ id: this.id, drop: true });
  }
}
