import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { parseJunit } from './junit';
import { countsOf, mergeSuite, newSuite, type TestSuite } from './test-suite';

/** Largest uncompressed JUnit report read (GitLab caps report sizes too); larger ones set the suite error. */
export const MAX_JUNIT_BYTES = 50 * 1024 * 1024;

/** One stored JUnit artifact of a job. */
export interface JunitSource {
  jobId: number;
  jobName: string;
  /** `gzip` (what runners upload) or `raw`. */
  format: string;
  open(): Promise<Readable | null>;
}

/** Reads a stored report (gunzipped while streaming), at most MAX_JUNIT_BYTES. */
export async function readReport(body: Readable, gzip: boolean): Promise<string> {
  const stream = gzip ? body.pipe(createGunzip()) : body;
  if (gzip) body.on('error', (e) => stream.destroy(e));
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_JUNIT_BYTES) {
      stream.destroy();
      throw new Error(`report is larger than ${MAX_JUNIT_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The XML documents of a report: a runner's `gzip` report holds one gzip member per matched file
 * (GitLab parses each as its own document), and gunzipping joins them; each starts with its
 * declaration.
 */
export function xmlDocuments(text: string): string[] {
  const docs = text.split(/(?=<\?xml[\s?])/).filter((d) => d.trim() !== '');
  return docs.length ? docs : [text];
}

/** The pipeline's test suites: one per job name, parallel jobs of that name merged (GitLab's `pipeline.test_reports`). */
export async function buildTestSuites(sources: JunitSource[]): Promise<TestSuite[]> {
  const byName = new Map<string, TestSuite>();
  for (const src of sources) {
    const suite = newSuite(src.jobName, [src.jobId]);
    const body = await src.open();
    if (body) {
      try {
        for (const doc of xmlDocuments(await readReport(body, src.format === 'gzip'))) parseJunit(doc, suite);
      } catch (e) {
        suite.suiteError = `JUnit data parsing failed: ${e instanceof Error ? e.message : String(e)}`;
      }
    }
    const known = byName.get(src.jobName);
    if (known) mergeSuite(known, suite);
    else byName.set(src.jobName, suite);
  }
  return [...byName.values()];
}

/** Report totals: sums over the suites. */
export function reportTotals(suites: TestSuite[]): { time: number; count: number; success: number; failed: number; skipped: number; error: number } {
  const t = { time: 0, count: 0, success: 0, failed: 0, skipped: 0, error: 0 };
  for (const s of suites) {
    const c = countsOf(s);
    t.time += s.totalTime;
    t.count += c.total;
    t.success += c.success;
    t.failed += c.failed;
    t.skipped += c.skipped;
    t.error += c.error;
  }
  return t;
}
