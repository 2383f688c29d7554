import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { toTestReport, toTestReportSummary } from '../../src/entities/test-report';
import { parseJunit } from '../../src/test-reports/junit';
import { buildTestSuites } from '../../src/test-reports/report';
import { countsOf, listedCases, newSuite } from '../../src/test-reports/test-suite';

const SUITES = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="all">
  <testsuite name="math" tests="4">
    <testcase classname="math.Add" name="adds" file="test/add.js" time="0.25"/>
    <testcase classname="math.Sub" name="subtracts" time="1.5"><failure message="expected 1">AssertionError: expected 1 to be 2
    at sub.js:3</failure><system-out>see [[ATTACHMENT|shots/sub.png]]</system-out></testcase>
    <testcase classname="math.Div" name="divides" time="abc"><skipped/></testcase>
    <testcase classname="math.Mul" name="multiplies" time="0.1"><error message="boom"/></testcase>
  </testsuite>
</testsuites>`;

describe('parseJunit', () => {
  it.each([
    ['a testsuites root', SUITES, { total: 4, success: 1, failed: 1, skipped: 1, error: 1 }],
    ['a bare testsuite root', '<testsuite name="s"><testcase classname="a" name="b"/><testcase classname="a" name="c"/></testsuite>', { total: 2, success: 2, failed: 0, skipped: 0, error: 0 }],
    ['nested suites (PHPUnit)', '<testsuites><testsuite name="o"><testsuite name="i"><testcase classname="a" name="b"><failure/></testcase></testsuite></testsuite></testsuites>', { total: 1, success: 0, failed: 1, skipped: 0, error: 0 }],
    ['a duplicate case (counted once)', '<testsuite name="s"><testcase classname="a" name="b" time="1"/><testcase classname="a" name="b" time="2"/></testsuite>', { total: 1, success: 1, failed: 0, skipped: 0, error: 0 }],
    ['no suites at all', '<report/>', { total: 0, success: 0, failed: 0, skipped: 0, error: 0 }],
  ])('counts %s', (_label, xml, counts) => {
    const suite = newSuite('test');
    parseJunit(xml, suite);
    expect(suite.suiteError).toBeNull();
    expect(countsOf(suite)).toEqual(counts);
  });

  it('reads status, output, file, time and attachment as GitLab does', () => {
    const suite = newSuite('test');
    parseJunit(SUITES, suite);
    const byName = Object.fromEntries(listedCases(suite).map((c) => [c.name, c]));
    expect(byName.subtracts).toMatchObject({ status: 'failed', classname: 'math.Sub', executionTime: 1.5, attachment: 'shots/sub.png' });
    expect(byName.subtracts.systemOutput).toBe('AssertionError: expected 1 to be 2\n    at sub.js:3');
    expect(byName.adds).toMatchObject({ status: 'success', file: 'test/add.js', executionTime: 0.25, systemOutput: null, attachment: null });
    expect(byName.divides).toMatchObject({ status: 'skipped', executionTime: 0, systemOutput: null });
    expect(byName.multiplies).toMatchObject({ status: 'error', systemOutput: { message: 'boom' } });
    expect(listedCases(suite).map((c) => c.status)).toEqual(['failed', 'error', 'success', 'skipped']);
    expect(suite.totalTime).toBeCloseTo(1.85);
  });

  it('sets the suite error and reports zero counts for XML that does not parse', () => {
    const suite = newSuite('test');
    parseJunit('<testsuite><testcase></testsuite>', suite);
    expect(suite.suiteError).toMatch(/^JUnit XML parsing failed: /);
    expect(countsOf(suite).total).toBe(0);
    expect(listedCases(suite)).toEqual([]);
  });
});

describe('buildTestSuites and the report entities', () => {
  const source = (jobId: number, jobName: string, xml: string) => ({ jobId, jobName, format: 'gzip', open: async () => Readable.from([gzipSync(xml)]) });

  it('gunzips stored reports, merges jobs of one name, and shapes test_report and test_report_summary', async () => {
    const suites = await buildTestSuites([
      source(7, 'rspec', SUITES),
      source(8, 'rspec', '<testsuite name="more"><testcase classname="x" name="y" time="2"/></testsuite>'),
      source(9, 'lint', '<oops'),
    ]);
    const members = await buildTestSuites([{ jobId: 10, jobName: 'two-files', format: 'gzip', open: async () => Readable.from([Buffer.concat([gzipSync('<?xml version="1.0"?><testsuite name="a"><testcase classname="a" name="x"/></testsuite>'), gzipSync('<?xml version="1.0"?>\n<testsuite name="b"><testcase classname="b" name="y"/></testsuite>')])]) }]);
    expect(members[0].suiteError).toBeNull();
    expect(countsOf(members[0]).success).toBe(2);
    const report = toTestReport(suites, (job, path) => `http://h/p/-/jobs/${job}/artifacts/file/${path}`) as any;
    expect(report).toMatchObject({ total_count: 5, success_count: 2, failed_count: 1, skipped_count: 1, error_count: 1 });
    expect(report.total_time).toBeCloseTo(3.85);
    expect(report.test_suites.map((s: any) => [s.name, s.total_count, s.suite_error === null])).toEqual([['rspec', 5, true], ['lint', 0, false]]);
    expect(Object.keys(report.test_suites[0])).toEqual(['name', 'total_time', 'total_count', 'success_count', 'failed_count', 'skipped_count', 'error_count', 'suite_error', 'test_cases']);
    expect(report.test_suites[0].test_cases[0]).toEqual({ status: 'failed', name: 'subtracts', classname: 'math.Sub', file: null, execution_time: 1.5, system_output: 'AssertionError: expected 1 to be 2\n    at sub.js:3', stack_trace: null, attachment_url: 'http://h/p/-/jobs/7/artifacts/file/shots/sub.png' });
    const summary = toTestReportSummary(suites) as any;
    expect(summary.total).toMatchObject({ count: 5, success: 2, failed: 1, skipped: 1, error: 1 });
    expect(summary.total.suite_error).toMatch(/^JUnit XML parsing failed/);
    expect(summary.test_suites[0]).toMatchObject({ name: 'rspec', build_ids: [7, 8], total_count: 5, suite_error: null });
  });
});
