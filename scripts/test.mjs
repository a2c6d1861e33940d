#!/usr/bin/env node
// `npm test`: every check — type check, lint and the replica's tests on WebAssembly SQLite (side by side),
// unit and API tests (Vitest), the API tests again on PostgreSQL, then the end-to-end tests in Chromium
// (Playwright's runner: the hub on SQLite, the replica specs, and the specs that rest on the backend again on
// PostgreSQL; playwright.config.mjs).
// Every step runs even if an earlier one failed, so one run shows everything; the exit code is non-zero if
// any step failed. The summary gives each step's time and names the failed tests; its last line is the
// plain "N passed, N failed" count.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { existsSync, readdirSync, readFileSync, mkdirSync, rmSync } from 'node:fs';
import { relative } from 'node:path';

const results = [];
const runStarted = Date.now();
const totals = { passed: 0, failed: 0, skipped: 0 };

/**
 * One step: runs the command and reads its test counts from the report it wrote (`count`). Output goes
 * straight to the terminal; steps that run side by side are short and quiet (type check, lint).
 */
async function step(name, command, args, { count, env = {} } = {}) {
  console.log(`\n=== ${name}: ${[command, ...args].join(' ')}`);
  const started = Date.now();
  const status = await new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code) => resolve(code ?? 1));
    child.on('error', () => resolve(1));
  });
  const ok = status === 0;
  const counts = count?.() ?? { passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 };
  if (!ok && counts.failed === 0) counts.failed = 1;
  for (const key of Object.keys(totals)) totals[key] += counts[key] ?? 0;
  results.push({ name, ok, seconds: ((Date.now() - started) / 1000).toFixed(1), counts, failures: counts.failures ?? [] });
}

/** The counts of a Vitest JSON report, with the failed tests by file and name. */
function vitestCounts(file) {
  const report = readJson(file);
  if (!report) return undefined;
  const failures = report.testResults.flatMap((result) => {
    const where = relative(process.cwd(), result.name);
    const failed = result.assertionResults.filter((test) => test.status === 'failed')
      .map((test) => withReason(`${where} > ${test.fullName}`, test.failureMessages?.[0]));
    // A file that failed before any test ran (an import error, a hook) has no failed test of its own.
    return failed.length === 0 && result.status === 'failed' ? [`${where}: ${result.message?.split('\n')[0] ?? 'failed'}`] : failed;
  });
  return { passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests + report.numTodoTests, failures };
}

/** The counts of Playwright's JSON report: a flaky test (passed only on a retry) counts as failed. */
function playwrightCounts(file) {
  const report = readJson(file);
  if (!report) return undefined;
  const tests = [];
  const walk = (suite, path) => {
    for (const spec of suite.specs ?? []) for (const test of spec.tests) tests.push({ test, title: [...path, spec.title].join(' > '), file: spec.file });
    for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  const failed = tests.filter(({ test }) => test.status === 'unexpected' || test.status === 'flaky');
  const failures = [
    ...failed.map(({ test, title, file }) => withReason(`[${test.projectName}] e2e/${file} > ${title}`, test.results.at(-1)?.error?.message)),
    ...(report.errors ?? []).map((error) => `${error.message?.split('\n')[0] ?? 'an error outside the tests'}`),
  ];
  const { expected = 0, skipped = 0 } = report.stats ?? {};
  return { passed: expected, failed: failed.length + (report.errors?.length ?? 0), skipped, failures };
}

/**
 * A failed test's name with the first line of its error under it: a CI log that keeps only its tail still says
 * what failed, not only where.
 */
function withReason(name, message) {
  // eslint-disable-next-line no-control-regex -- the reporters colour their messages
  const first = message?.replace(/\u001b\[[0-9;]*m/g, '').split('\n').find((line) => line.trim() !== '')?.trim();
  return first ? `${name}\n         ${first.slice(0, 300)}` : name;
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
const postgresReport = '.cache/vitest-postgres-report.json';
const e2eReport = '.cache/e2e-report.json';
const wasmReport = '.cache/vitest-wasm-report.json';
for (const report of [vitestReport, postgresReport, e2eReport, wasmReport]) rmSync(report, { force: true });

// Vitest's own default is one worker per core but one; its tests wait on child processes, sockets and
// timers as much as they compute, so one more worker than cores keeps both cores busy (docs/testing.md).
const vitestWorkers = String(Number(process.env.OUTPOST_TEST_WORKERS ?? availableParallelism() + 1));
const vitest = (config, report) => ['vitest', 'run', ...config, `--maxWorkers=${vitestWorkers}`, '--reporter=default', '--reporter=json', `--outputFile=${report}`];

// The two static checks are short and single-threaded: side by side, and beside them the replica's tests on
// SQLite compiled to WebAssembly, the engine the browser's worker runs (vitest.wasm.config.ts; `npm run test:wasm`
// runs the engine's tests there too).
await Promise.all([
  step('type check', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']),
  step('lint', 'npx', ['eslint', '--max-warnings', '0', '.']),
  step('replica tests on SQLite in WebAssembly', 'npx', ['vitest', 'run', '-c', 'vitest.wasm.config.ts', 'test/replica', '--maxWorkers=2', '--reporter=dot', '--reporter=json', `--outputFile=${wasmReport}`], { count: () => vitestCounts(wasmReport) }),
]);
// Every answer the suite's call() gets is checked against the hub's OpenAPI document (test/support/openapiCheck.ts).
await step('unit and API tests', 'npx', vitest([], vitestReport), { count: () => vitestCounts(vitestReport), env: { OUTPOST_OPENAPI_CHECK: '1' } });
// The hub on PostgreSQL: the same API suite on a throwaway cluster, when the server is installed (.ci/run installs it).
const postgresInstalled = existsSync('/usr/lib/postgresql') && readdirSync('/usr/lib/postgresql').some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`));
if (postgresInstalled) {
  await step('API tests on PostgreSQL', 'npx', vitest(['-c', 'vitest.postgres.config.ts'], postgresReport), { count: () => vitestCounts(postgresReport) });
} else {
  console.log('\n=== API tests on PostgreSQL: skipped, PostgreSQL server binaries are not installed (apt-get install postgresql; .ci/run does it)');
}
// Every project of playwright.config.mjs; the postgres one only where the server is installed.
await step('end-to-end tests', 'npx', ['playwright', 'test'], { count: () => playwrightCounts(e2eReport) });

console.log('\n=== summary');
for (const r of results) {
  const tests = r.counts.passed + r.counts.failed > 1 ? `, ${r.counts.passed} passed, ${r.counts.failed} failed` : '';
  console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds} s${tests})`);
  // Named here as well as above: a CI log that keeps only its tail still says which tests failed.
  for (const failure of r.failures.slice(0, 20)) console.log(`       failed: ${failure}`);
}
console.log(`all steps: ${((Date.now() - runStarted) / 60_000).toFixed(1)} min`);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
