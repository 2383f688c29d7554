/**
 * The two worker threads behind `OffloadedMd5` (`md5-worker.ts`), as source run with `eval`.
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
 *
 * Messages to the hasher: `{ id, data, len, end?, fd?, pos? }` or `{ id, drop: true, fd? }`. Answers:
 * `{ id, ack, data }` for a batch, `{ id, hex, data }` at the end, `{ id, error, data }` at the end of
 * a job whose write failed (the rest of it is hashed but not written), `{ id, dropped, data }`.
 */
export const HASHER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const writer = workerData.writer;
const jobs = new Map();
parentPort.on('message', (m) => {
  let hash = jobs.get(m.id);
  if (!hash) jobs.set(m.id, (hash = createHash('md5')));
  if (m.data && !m.drop) hash.update(new Uint8Array(m.data, 0, m.len));
  if (m.end || m.drop) jobs.delete(m.id);
  const answer = m.drop ? { id: m.id, dropped: true, data: m.data } : m.end ? { id: m.id, hex: hash.digest('hex'), data: m.data } : { id: m.id, ack: true, data: m.data };
  const back = m.data ? [m.data] : [];
  if (m.fd === undefined) parentPort.postMessage(answer, back);
  else writer.postMessage({ ...answer, fd: m.fd, pos: m.pos, len: m.len }, back);
});
`;

export const WRITER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const errors = new Map();
function write(fd, bytes, pos) {
  let off = 0;
  while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off, pos + off);
}
workerData.hasher.on('message', (m) => {
  if (m.data && !m.dropped && m.len > 0 && !errors.has(m.id)) {
    try {
      write(m.fd, new Uint8Array(m.data, 0, m.len), m.pos);
    } catch (e) {
      errors.set(m.id, (e && e.code) || String(e));
    }
  }
  const back = m.data ? [m.data] : [];
  if (m.ack) return parentPort.postMessage({ id: m.id, ack: true, data: m.data }, back);
  const error = errors.get(m.id);
  errors.delete(m.id);
  if (error && m.hex !== undefined) parentPort.postMessage({ id: m.id, error, data: m.data }, back);
  else parentPort.postMessage({ id: m.id, hex: m.hex, dropped: m.dropped, data: m.data }, back);
});
`;
