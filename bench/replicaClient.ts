// The desktop replica for `npm run bench`, in its own process, bundled by esbuild as the desktop
// app's main process is (no TypeScript loader at run time):
//   node .cache/bench/replicaClient.cjs <hub url> <hub token> <data dir> <edits>
// 1. a fresh replica engine syncs everything from the hub (records into its own tables, search and documents);
// 2. it makes <edits> offline changes through its own REST interface (in process), then pushes them to the hub.
// Prints one JSON line: records, seconds and peak memory of the initial sync; edits and seconds of the push;
// the whole run's peak memory; the CPU seconds the push cost this process and (given HUB_PID) the hub.
import { readFileSync } from 'node:fs';
import { openEngine } from '../electron/engine/engine.js';
import { createHttpApp } from '../electron/engine/http/app.js';
import { Replica } from '../electron/engine/replica/replica.js';

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

const TABLES = ['account', 'users', 'contacts', 'tags', 'tasks', 'notes', 'calls', 'call_outcomes', 'visit_outcomes', 'text_messages', 'visits', 'documents'];

async function main(): Promise<void> {
  const engine = openEngine({ dataDir, replica: true });
  const replica = new Replica(engine, { hubUrl, token });
  // The engine's HTTP app is loaded first, as in the desktop app, so the sync's memory includes it.
  const app = await createHttpApp(engine, { rateLimitPerHour: 0, replica });

  let started = performance.now();
  await replica.sync();
  const initialSeconds = (performance.now() - started) / 1000;
  const syncPeakMb = process.resourceUsage().maxRSS / 1024;
  const records = engine.db.prepare(`SELECT ${TABLES.map((t) => `(SELECT COUNT(*) FROM ${t})`).join(' + ')}`).pluck().get() as number;
  const initial = replica.status();
  if (initial.state !== 'up_to_date') throw new Error(`initial sync ended ${initial.state}: ${initial.last_error}`);

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
  await app.close();
  engine.close();
  console.log(JSON.stringify({ records, initialSeconds, syncPeakMb, edits: taskIds.length, pushSeconds, pushCpuSeconds, hubPushCpuSeconds, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
