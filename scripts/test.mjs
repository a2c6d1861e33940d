#!/usr/bin/env node
// `npm test`: every check, in order — type check, lint, unit and API tests
// (Vitest), the API tests again on PostgreSQL, then end-to-end tests in
// Chromium, against a hub on SQLite and again against one on PostgreSQL. Every step runs even if an
// earlier one failed, so one run shows everything; the exit code is non-zero
// if any step failed. The summary names the failed tests; the last line is the plain "N passed, N failed" summary.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, mkdirSync, rmSync } from 'node:fs';
import { relative } from 'node:path';

const results = [];
const totals = { passed: 0, failed: 0, skipped: 0 };

/** Runs one step; `count` reads its test counts from the report it wrote. */
function step(name, command, args, count, env = {}) {
  console.log(`\n=== ${name}: ${[command, ...args].join(' ')}`);
  const started = Date.now();
  // The two end-to-end runs write the same report: each step reads only its own.
  rmSync(e2eReport, { force: true });
  const run = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = run.status === 0;
  const counts = count?.() ?? { passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 };
  if (!ok && counts.failed === 0) counts.failed = 1;
  for (const key of Object.keys(totals)) totals[key] += counts[key] ?? 0;
  results.push({ name, ok, seconds: ((Date.now() - started) / 1000).toFixed(1), failures: counts.failures ?? [] });
}

/** The counts of a Vitest JSON report, with the failed tests by file and name. */
function vitestCounts(file) {
  const report = readJson(file);
  if (!report) return undefined;
  const failures = report.testResults.flatMap((result) => {
    const where = relative(process.cwd(), result.name);
    const failed = result.assertionResults.filter((test) => test.status === 'failed').map((test) => `${where} > ${test.fullName}`);
    // A file that failed before any test ran (an import error, a hook) has no failed test of its own.
    return failed.length === 0 && result.status === 'failed' ? [`${where}: ${result.message?.split('\n')[0] ?? 'failed'}`] : failed;
  });
  return { passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests + report.numTodoTests, failures };
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

mkdirSync('.cache', { recursive: true });
const vitestReport = '.cache/vitest-report.json';
const e2eReport = '.cache/e2e-report.json';
const postgresReport = '.cache/vitest-postgres-report.json';
rmSync(postgresReport, { force: true });
rmSync(vitestReport, { force: true });
rmSync(e2eReport, { force: true });

step('type check', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
step('lint', 'npx', ['eslint', '--max-warnings', '0', '.']);
// Every answer the suite's call() gets is checked against the hub's OpenAPI document (test/support/openapiCheck.ts).
step('unit and API tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${vitestReport}`], () => vitestCounts(vitestReport), { OUTPOST_OPENAPI_CHECK: '1' });
// The hub on PostgreSQL: the same API suite on a throwaway cluster, when the server is installed (.ci/run installs it).
const postgresInstalled = existsSync('/usr/lib/postgresql') && readdirSync('/usr/lib/postgresql').some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`));
if (postgresInstalled) {
  step('API tests on PostgreSQL', 'npx', ['vitest', 'run', '-c', 'vitest.postgres.config.ts', '--reporter=default', '--reporter=json', `--outputFile=${postgresReport}`], () => vitestCounts(postgresReport));
} else {
  console.log('\n=== API tests on PostgreSQL: skipped, PostgreSQL server binaries are not installed (apt-get install postgresql; .ci/run does it)');
}
step('end-to-end tests', 'node', ['scripts/e2e.mjs'], () => readJson(e2eReport));
// The web UI again, served by a hub on PostgreSQL (the same specs; the conflicts spec puts its own hub there too, e2e/ownHub.mjs; other extra hubs stay on SQLite).
if (postgresInstalled) {
  step('end-to-end tests, hub on PostgreSQL', 'node', ['scripts/e2e.mjs'], () => readJson(e2eReport), { OUTPOST_E2E_POSTGRES: '1' });
}

console.log('\n=== summary');
for (const r of results) {
  console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds} s)`);
  // Named here as well as above: a CI log that keeps only its tail still says which tests failed.
  for (const failure of r.failures.slice(0, 20)) console.log(`       failed: ${failure}`);
}
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
