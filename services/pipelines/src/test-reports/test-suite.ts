import { createHash } from 'node:crypto';

/** GitLab's test case statuses (`Gitlab::Ci::Reports::TestCase::STATUS_TYPES`). */
export type TestCaseStatus = 'success' | 'failed' | 'skipped' | 'error';

/** Order in which a suite's cases are listed: failures and errors first. */
const LISTING_ORDER: TestCaseStatus[] = ['failed', 'error', 'success', 'skipped'];

/** One test case, as GitLab's `Gitlab::Ci::Reports::TestCase` holds it. */
export interface TestCase {
  status: TestCaseStatus;
  name: string | null;
  classname: string | null;
  file: string | null;
  /** Seconds (Ruby's `to_f` of the `time` attribute: 0 when absent or unreadable). */
  executionTime: number;
  /** The failure/error/skipped element's text, its attributes when it has no text, or null. */
  systemOutput: string | Record<string, string> | null;
  stackTrace: string | null;
  /** The `[[ATTACHMENT|path]]` of a failed case's system-out, or null. */
  attachment: string | null;
  /** sha256 of `<suite>_<classname>_<name>`: a second case with the same key and status replaces the first. */
  key: string;
}

/** A test suite (one per job name) with its cases by status, as `Gitlab::Ci::Reports::TestSuite`. */
export interface TestSuite {
  name: string;
  /** Cases by status, then by key (insertion order kept). */
  cases: Map<TestCaseStatus, Map<string, TestCase>>;
  totalTime: number;
  suiteError: string | null;
  /** Jobs whose reports made the suite. */
  buildIds: number[];
}

/** An empty suite named `name`. */
export function newSuite(name: string, buildIds: number[] = []): TestSuite {
  return { name, cases: new Map(), totalTime: 0, suiteError: null, buildIds };
}

/** The case key GitLab derives from the case's identity. */
export function caseKey(suiteName: string, classname: string | null, name: string | null): string {
  return createHash('sha256').update(`${suiteName}_${classname ?? ''}_${name ?? ''}`).digest('hex');
}

/** Adds a case: same status and key replaces the earlier one; its time is added either way (as GitLab does). */
export function addCase(suite: TestSuite, c: TestCase): void {
  let byKey = suite.cases.get(c.status);
  if (!byKey) suite.cases.set(c.status, (byKey = new Map()));
  byKey.set(c.key, c);
  suite.totalTime += c.executionTime;
}

/** Merges `other` into `suite` (parallel jobs of the same name make one suite). */
export function mergeSuite(suite: TestSuite, other: TestSuite): void {
  for (const [status, byKey] of other.cases) for (const c of byKey.values()) {
    let mine = suite.cases.get(status);
    if (!mine) suite.cases.set(status, (mine = new Map()));
    mine.set(c.key, c);
  }
  suite.totalTime += other.totalTime;
  suite.suiteError ??= other.suiteError;
  suite.buildIds.push(...other.buildIds);
}

/** A status's case count: 0 for a suite with an error. */
export function countOf(suite: TestSuite, status: TestCaseStatus): number {
  return suite.suiteError ? 0 : (suite.cases.get(status)?.size ?? 0);
}

/** The suite's counters (all 0 when the suite has an error). */
export function countsOf(suite: TestSuite): { total: number; success: number; failed: number; skipped: number; error: number } {
  const success = countOf(suite, 'success');
  const failed = countOf(suite, 'failed');
  const skipped = countOf(suite, 'skipped');
  const error = countOf(suite, 'error');
  return { total: success + failed + skipped + error, success, failed, skipped, error };
}

/** The suite's cases as listed: failed, error, success, skipped; slower first within a status. Empty for a suite with an error. */
export function listedCases(suite: TestSuite): TestCase[] {
  if (suite.suiteError) return [];
  return LISTING_ORDER.flatMap((s) => [...(suite.cases.get(s)?.values() ?? [])].sort((a, b) => b.executionTime - a.executionTime));
}
