import { reportTotals } from '../test-reports/report';
import { countsOf, listedCases, type TestCase, type TestSuite } from '../test-reports/test-suite';

/** GitLab's `TestCaseEntity` (+ `file`); `attachment_url` only for a case with an attachment. */
export function toTestCase(c: TestCase, attachmentUrl: (path: string) => string): Record<string, unknown> {
  return {
    status: c.status,
    name: c.name,
    classname: c.classname,
    file: c.file,
    execution_time: c.executionTime,
    system_output: c.systemOutput,
    stack_trace: c.stackTrace,
    ...(c.attachment ? { attachment_url: attachmentUrl(c.attachment) } : {}),
  };
}

function suiteCounters(s: TestSuite) {
  const c = countsOf(s);
  return { name: s.name, total_time: s.totalTime, total_count: c.total, success_count: c.success, failed_count: c.failed, skipped_count: c.skipped, error_count: c.error };
}

/** GitLab's `TestReportEntity` (details): totals and every suite with its cases. */
export function toTestReport(suites: TestSuite[], attachmentUrl: (jobId: number, path: string) => string): Record<string, unknown> {
  const t = reportTotals(suites);
  return {
    total_time: t.time,
    total_count: t.count,
    success_count: t.success,
    failed_count: t.failed,
    skipped_count: t.skipped,
    error_count: t.error,
    test_suites: suites.map((s) => ({
      ...suiteCounters(s),
      suite_error: s.suiteError,
      test_cases: listedCases(s).map((c) => toTestCase(c, (p) => attachmentUrl(s.buildIds[0], p))),
    })),
  };
}

/** GitLab's `TestReportSummaryEntity`: `total` and each suite's counters with its `build_ids`. */
export function toTestReportSummary(suites: TestSuite[]): Record<string, unknown> {
  const t = reportTotals(suites);
  return {
    total: { time: t.time, count: t.count, success: t.success, failed: t.failed, skipped: t.skipped, error: t.error, suite_error: suites.find((s) => s.suiteError)?.suiteError ?? null },
    test_suites: suites.map((s) => ({ ...suiteCounters(s), build_ids: s.buildIds, suite_error: s.suiteError })),
  };
}
