// The desktop replica for `npm run bench`, in its own process, bundled by esbuild as the desktop
// app's main process is (no TypeScript loader at run time):
//   node .cache/bench/replicaClient.cjs <hub url> <hub token> <data dir> <edits>
// 1. a fresh replica engine syncs everything from the hub (records into its own tables, search and documents);
// 2. it makes <edits> offline changes through its own REST interface (in process), then pushes them to the hub;
// 3. live sync: started as the desktop app starts it, it follows LIVE_EDITS edits made on the hub one at a time.
// With <edits> 0 only the first step runs.
// Prints one JSON line: records, seconds, peak memory and time split (Replica.firstSync, as a line, with the hub's CPU meanwhile) of the initial sync; edits and seconds of the push;
// the whole run's peak memory; the CPU seconds the push cost this process and (given HUB_PID) the hub; and per
// live edit, the time until the replica's own table had it and the time the hub took to answer the edit.
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openEngine } from '../electron/engine/engine.js';
import { createHttpApp } from '../electron/engine/http/app.js';
import { describeFirstSync, Replica } from '../electron/engine/replica/replica.js';

const [hubUrl, token, dataDir, editsArg] = process.argv.slice(2);
const edits = Number(editsArg);

/** The hub's CPU seconds so far, when the bench says which process it is (HUB_PID; Linux /proc, else NaN). */
function hubCpuSeconds(): number {
  try {
    const fields = readFileSync(`/proc/${process.env.HUB_PID}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

const LIVE_EDITS = 25;
const LIVE_TIMEOUT_MS = 15_000;

const TABLES = ['account', 'users', 'contacts', 'tags', 'tasks', 'notes', 'calls', 'call_outcomes', 'visit_outcomes', 'text_messages', 'visits', 'documents'];

async function main(): Promise<void> {
  const engine = openEngine({ dataDir, replica: true });
  const replica = new Replica(engine, { hubUrl, token });
  // The engine's HTTP app is loaded first, as in the desktop app, so the sync's memory includes it.
  const app = await createHttpApp(engine, { rateLimitPerHour: 0, replica });

  let started = performance.now();
  const hubCpuAtStart = hubCpuSeconds();
  // This thread is the desktop app's main process's: while it runs a statement, the app's window and requests wait.
  const pauses = monitorEventLoopDelay({ resolution: 10 });
  pauses.enable();
  await replica.sync();
  pauses.disable();
  const initialSeconds = (performance.now() - started) / 1000;
  // The hub's CPU meanwhile: whether the machine's other core was free for the replica (2 cores here).
  const hubSyncCpuSeconds = hubCpuSeconds() - hubCpuAtStart;
  const syncPeakMb = process.resourceUsage().maxRSS / 1024;
  const records = engine.db.prepare(`SELECT ${TABLES.map((t) => `(SELECT COUNT(*) FROM ${t})`).join(' + ')}`).pluck().get() as number;
  const initial = replica.status();
  if (initial.state !== 'up_to_date') throw new Error(`initial sync ended ${initial.state}: ${initial.last_error}`);
  const firstSync = `${describeFirstSync(replica.firstSync!)}; the hub's CPU meanwhile ${hubSyncCpuSeconds.toFixed(1)} s; `
    + `this thread's longest pause ${(pauses.max / 1e6).toFixed(0)} ms`;
  if (edits === 0) {
    await app.close();
    engine.close();
    console.log(JSON.stringify({ records, initialSeconds, syncPeakMb, firstSync }));
    return;
  }

  // Offline edits, as the UI makes them: PUTs through the replica's own REST interface (not timed).
  const self = (await (await fetch(`${hubUrl}/v2/users/self`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { data: { id: number } };
  const localToken = engine.tokens.createPersonal(self.data.id, ['read', 'write']);
  const taskIds = engine.db.prepare('SELECT id FROM tasks ORDER BY id LIMIT ?').pluck().all(edits) as number[];
  for (const [i, id] of taskIds.entries()) {
    const answer = await app.inject({ method: 'PUT', url: `/v2/tasks/${id}`, headers: { authorization: `Bearer ${localToken}` }, payload: { data: { content: `Edited offline ${i}` } } });
    if (answer.statusCode !== 200) throw new Error(`local edit answered ${answer.statusCode}: ${answer.body}`);
  }
  started = performance.now();
  const cpuBefore = process.cpuUsage();
  const hubCpuBefore = hubCpuSeconds();
  const pushed = await replica.push();
  const pushSeconds = (performance.now() - started) / 1000;
  const pushCpu = process.cpuUsage(cpuBefore);
  const pushCpuSeconds = (pushCpu.user + pushCpu.system) / 1e6;
  const hubPushCpuSeconds = hubCpuSeconds() - hubCpuBefore;
  const after = replica.status();
  if (pushed !== 'done' || after.pending !== 0 || after.issues !== 0) throw new Error(`push ended ${pushed}: ${JSON.stringify(after)}`);
  const conflicted = await pushWithConflicts(app, replica, localToken, hubUrl, token, taskIds);
  const live = await followHubEdits(replica, engine, taskIds[0]!);
  await app.close();
  engine.close();
  console.log(JSON.stringify({ records, initialSeconds, syncPeakMb, firstSync, edits: taskIds.length, pushSeconds, pushCpuSeconds, hubPushCpuSeconds, conflicted, maxRssMb: process.resourceUsage().maxRSS / 1024, live }));
}

/**
 * Field-by-field merging on push: the same edits again, but a colleague changed a tenth of those tasks on the hub meanwhile
 * (made after the replica's edits, before its push; not timed). Times the push: the hub takes nine tenths
 * and keeps the rest, which the replica records as open conflicts.
 */
async function pushWithConflicts(app: Awaited<ReturnType<typeof createHttpApp>>, replica: Replica, localToken: string, hubUrl: string, token: string, taskIds: number[]) {
  for (const [i, id] of taskIds.entries()) {
    const answer = await app.inject({ method: 'PUT', url: `/v2/tasks/${id}`, headers: { authorization: `Bearer ${localToken}` }, payload: { data: { content: `Edited again ${i}` } } });
    if (answer.statusCode !== 200) throw new Error(`local edit answered ${answer.statusCode}: ${answer.body}`);
  }
  const colleague = taskIds.filter((_, i) => i % 10 === 0);
  for (let at = 0; at < colleague.length; at += 16) {
    await Promise.all(colleague.slice(at, at + 16).map(async (id) => {
      const answer = await fetch(`${hubUrl}/v2/tasks/${id}`, {
        method: 'PUT', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ data: { content: `Colleague ${id}` } }),
      });
      if (answer.status !== 200) throw new Error(`hub edit answered ${answer.status}`);
    }));
  }
  const started = performance.now();
  const pushed = await replica.push();
  const seconds = (performance.now() - started) / 1000;
  const status = replica.status();
  if (pushed !== 'done' || status.pending !== 0 || status.issues !== 0 || status.conflicts !== colleague.length) {
    throw new Error(`push with conflicts ended ${pushed}: ${JSON.stringify(status)}, ${colleague.length} conflicts expected`);
  }
  return { edits: taskIds.length, conflicts: status.conflicts, seconds };
}

/**
 * Live sync as the desktop app runs it (the poll once a minute here, so anything faster came through the
 * hub's change stream): edits a task on the hub, one at a time, and times how long until the replica's own
 * table has it (`seenMs`), beside how long the hub took to answer the edit (`answeredMs`, the baseline).
 */
async function followHubEdits(replica: Replica, engine: ReturnType<typeof openEngine>, taskId: number): Promise<{ seenMs: number[]; answeredMs: number[] }> {
  const localContent = engine.db.prepare('SELECT content FROM tasks WHERE id = ?').pluck();
  replica.start(60_000);
  const seenMs: number[] = [];
  const answeredMs: number[] = [];
  try {
    await until(() => replica.status().state === 'up_to_date', 'the replica to be up to date');
    for (let i = 0; i < LIVE_EDITS; i++) {
      const content = `Edited on the hub ${i}`;
      const started = performance.now();
      const answer = await fetch(`${hubUrl}/v2/tasks/${taskId}`, {
        method: 'PUT', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ data: { content } }),
      });
      if (answer.status !== 200) throw new Error(`the hub answered the edit ${answer.status}: ${await answer.text()}`);
      answeredMs.push(performance.now() - started);
      await until(() => localContent.get(taskId) === content, `edit ${i} to reach the replica`);
      seenMs.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await replica.stop();
  }
  return { seenMs, answeredMs };
}

/** Resolves once `done()` is true, checking every 2 ms; throws after LIVE_TIMEOUT_MS. */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + LIVE_TIMEOUT_MS;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`waited ${LIVE_TIMEOUT_MS} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
