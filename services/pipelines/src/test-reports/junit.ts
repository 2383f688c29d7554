import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { addCase, caseKey, type TestCase, type TestCaseStatus, type TestSuite } from './test-suite';

/**
 * GitLab's JUnit parser (`Gitlab::Ci::Parsers::Test::Junit`) over a report's XML: one top-level
 * `testsuites` allowed, at least one level of `testsuite`, nested suites followed (PHPUnit); each
 * `testcase` added to `suite` with its status from a `failure`, `error` or `skipped` child. XML that
 * does not parse sets the suite's error (`JUnit XML parsing failed: …`), as GitLab does.
 * See reference/pipelines.md §8.
 */
export function parseJunit(xml: string, suite: TestSuite): void {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    suite.suiteError = `JUnit XML parsing failed: ${valid.err.line}:${valid.err.col}: ${valid.err.msg}`;
    return;
  }
  try {
    const root = PARSER.parse(xml) as Node;
    for (const tc of allCases(root)) addCase(suite, toCase(tc.node, tc.suiteName ?? suite.name));
  } catch (e) {
    suite.suiteError = `JUnit data parsing failed: ${e instanceof Error ? e.message : String(e)}`;
  }
}

type Node = Record<string, unknown>;

const ATTR = '@_';
const TEXT = '#text';
const ATTACHMENT_TAG = /\[\[ATTACHMENT\|(.+?)\]\]/;

const PARSER = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: ATTR,
  textNodeName: TEXT,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  isArray: (name) => name === 'testsuite' || name === 'testcase' || name === 'testsuites',
});

function nodes(v: unknown): Node[] {
  return (Array.isArray(v) ? v : [v]).filter((x): x is Node => !!x && typeof x === 'object');
}

function attr(n: Node, name: string): string | null {
  const v = n[ATTR + name];
  return typeof v === 'string' ? v : null;
}

/** Every test case under the root, with the name of the suite that holds it. */
function* allCases(root: Node): Generator<{ node: Node; suiteName: string | null }> {
  const seen = new Set<Node>();
  // one top-level `testsuites`, whose own cases count too
  for (const all of nodes(root.testsuites).slice(0, 1)) yield* suiteCases(all, seen);
  for (const s of nodes(root.testsuite)) yield* suiteCases(s, seen);
}

function* suiteCases(s: Node, seen: Set<Node>): Generator<{ node: Node; suiteName: string | null }> {
  if (seen.has(s)) return;
  seen.add(s);
  for (const tc of nodes(s.testcase)) yield { node: tc, suiteName: attr(s, 'name') };
  for (const inner of nodes(s.testsuite)) yield* suiteCases(inner, seen);
}

/** What Hash.from_xml makes of a status element: its text, else its attributes, else null. */
function elementValue(v: unknown): string | Record<string, string> | null {
  const first = Array.isArray(v) ? v[0] : v;
  if (typeof first === 'string') return first === '' ? null : first;
  if (!first || typeof first !== 'object') return null;
  const n = first as Node;
  if (typeof n[TEXT] === 'string') return n[TEXT] as string;
  const attrs: Record<string, string> = {};
  for (const [k, x] of Object.entries(n)) if (k.startsWith(ATTR) && typeof x === 'string') attrs[k.slice(ATTR.length)] = x;
  return Object.keys(attrs).length ? attrs : null;
}

function toCase(n: Node, suiteName: string): TestCase {
  let status: TestCaseStatus = 'success';
  let systemOutput: TestCase['systemOutput'] = null;
  let attachment: string | null = null;
  if ('failure' in n) {
    status = 'failed';
    systemOutput = elementValue(n.failure);
    const out = elementValue(n['system-out']);
    attachment = typeof out === 'string' ? (ATTACHMENT_TAG.exec(out)?.[1] ?? null) : null;
  } else if ('error' in n) {
    status = 'error';
    systemOutput = elementValue(n.error);
  } else if ('skipped' in n) {
    status = 'skipped';
    systemOutput = elementValue(n.skipped);
  }
  const name = attr(n, 'name');
  const classname = attr(n, 'classname');
  const time = Number.parseFloat(attr(n, 'time') ?? '');
  return {
    status,
    name,
    classname,
    file: attr(n, 'file'),
    executionTime: Number.isFinite(time) ? time : 0,
    systemOutput,
    stackTrace: null,
    attachment,
    key: caseKey(suiteName, classname, name),
  };
}
