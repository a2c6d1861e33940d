// What a bench script starts and must not leave behind: its child processes (hubs, replicas, servers) and its
// temporary folders. Each script keeps its own, so one that runs another's lines (run.mjs, BENCH_ONLY=browser)
// cleans up only what it started.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function keeper() {
  const children = new Set();
  const tempDirs = [];
  return {
    /** A temporary folder, removed by cleanUp. */
    tempDir(prefix) {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      tempDirs.push(dir);
      return dir;
    },
    /** A child process, killed by cleanUp unless it has exited. */
    track(child) {
      children.add(child);
      child.on('exit', () => children.delete(child));
      return child;
    },
    cleanUp() {
      for (const child of children) child.kill('SIGKILL');
      for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Stops a child gracefully (a hub writes its CPU profile on exit), killing it if it has not ended in 10 s. */
export function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      done();
    });
    child.kill('SIGTERM');
  });
}
