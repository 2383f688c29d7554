#!/usr/bin/env node
// Runs every test with jest and prints the closing line CI reads: "N passed, N failed".
// Extra arguments are passed to jest (e.g. a path filter).
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const out = path.join(root, '.jest.json');
fs.rmSync(out, { force: true });
const jest = require.resolve('jest/bin/jest', { paths: [root] });
const r = spawnSync(process.execPath, [jest, '--json', `--outputFile=${out}`, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
let passed = 0;
let failed = 0;
let ok = r.status === 0;
try {
  const j = JSON.parse(fs.readFileSync(out, 'utf8'));
  passed = j.numPassedTests;
  failed = j.numFailedTests + j.numRuntimeErrorTestSuites;
  if (j.numPendingTests || j.numTodoTests) {
    console.log(`${j.numPendingTests + j.numTodoTests} tests were skipped: a skipped test is not a passing one`);
    ok = false;
    failed += j.numPendingTests + j.numTodoTests;
  }
  if (j.numTotalTests === 0) ok = false;
} catch {
  ok = false;
  failed = failed || 1;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);
