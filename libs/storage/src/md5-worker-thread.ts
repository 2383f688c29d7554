/**
 * The two worker threads behind `OffloadedMd5` (`md5-worker.ts`): this module runs as the hasher or
 * the writer, as its `workerData.role` says.
 *
 * The hasher updates a job's MD5 with each batch. A job without a descriptor is answered from there;
 * a job with one goes on to the writer (over a port between the two), which writes each batch at its
 * offset (`pwrite`) and answers. Writing into the page cache costs the kernel time on the writing
 * thread (at 1 GB, on a VM that gives back fresh pages from the host, more than MD5 itself); on a
 * thread of its own it runs beside the hashing instead of after it.
 *
 * Every message of a job takes the same path, and each thread handles its messages in order: once a
 * job's end or drop is answered, every batch sent before it has been hashed and written, so the
 * descriptor may be closed. A batch buffer comes back to the main thread with each answer.
 */
import { createHash, type Hash } from 'node:crypto';
import { writeSync } from 'node:fs';
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';

/** What a thread is started with: its role and the port to the other thread. */
export type Md5ThreadData = { role: 'hasher'; writer: MessagePort } | { role: 'writer'; hasher: MessagePort };

/** To the hasher: a batch (`end` on the last), or the drop of an abandoned job. */
export interface HasherMessage {
  id: number;
  data?: ArrayBuffer;
  len?: number;
  end?: boolean;
  drop?: boolean;
  /** The descriptor the job's bytes are written to, from `pos` on. */
  fd?: number;
  pos?: number;
}

/**
 * From the threads: `ack` for a batch, `hex` at the end, `error` at the end of a job whose write failed
 * (the rest of it is hashed but not written), `dropped` for a drop. Each carries back its batch buffer.
 */
export interface Md5Answer {
  id: number;
  ack?: boolean;
  hex?: string;
  error?: string;
  dropped?: boolean;
  data?: ArrayBuffer;
}

/** A hasher's answer on its way through the writer. */
type ToWriter = Md5Answer & { fd: number; pos?: number; len?: number };

function hasher(out: MessagePort, writer: MessagePort): void {
  const jobs = new Map<number, Hash>();
  out.on('message', (m: HasherMessage) => {
    let hash = jobs.get(m.id);
    if (!hash) jobs.set(m.id, (hash = createHash('md5')));
    if (m.data && !m.drop) hash.update(new Uint8Array(m.data, 0, m.len));
    if (m.end || m.drop) jobs.delete(m.id);
    const answer: Md5Answer = m.drop ? { id: m.id, dropped: true, data: m.data } : m.end ? { id: m.id, hex: hash.digest('hex'), data: m.data } : { id: m.id, ack: true, data: m.data };
    const back = m.data ? [m.data] : [];
    if (m.fd === undefined) out.postMessage(answer, back);
    else writer.postMessage({ ...answer, fd: m.fd, pos: m.pos, len: m.len } satisfies ToWriter, back);
  });
}

function write(fd: number, bytes: Uint8Array, pos: number): void {
  let off = 0;
  while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off, pos + off);
}

function writer(out: MessagePort, hasher: MessagePort): void {
  const errors = new Map<number, string>();
  hasher.on('message', (m: ToWriter) => {
    if (m.data && !m.dropped && m.len! > 0 && !errors.has(m.id)) {
      try {
        write(m.fd, new Uint8Array(m.data, 0, m.len), m.pos!);
      } catch (e) {
        errors.set(m.id, (e as NodeJS.ErrnoException)?.code || String(e));
      }
    }
    const back = m.data ? [m.data] : [];
    if (m.ack) return out.postMessage({ id: m.id, ack: true, data: m.data } satisfies Md5Answer, back);
    const error = errors.get(m.id);
    errors.delete(m.id);
    if (error && m.hex !== undefined) out.postMessage({ id: m.id, error, data: m.data } satisfies Md5Answer, back);
    else out.postMessage({ id: m.id, hex: m.hex, dropped: m.dropped, data: m.data } satisfies Md5Answer, back);
  });
}

// Imported on the main thread rather than started as a worker, it does nothing.
if (parentPort) {
  const data = workerData as Md5ThreadData;
  if (data.role === 'hasher') hasher(parentPort, data.writer);
  else writer(parentPort, data.hasher);
}
