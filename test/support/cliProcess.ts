import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The `outpost` command as real child processes, for tests: one-shot
 * commands and `serve`. Call `cleanUp` in afterAll: it kills what is still
 * running and removes the temp folders.
 */
const BIN = join(import.meta.dirname, '../../bin/outpost.mjs');
const dirs: string[] = [];
const children: ChildProcess[] = [];

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'outpost-cli-'));
  dirs.push(dir);
  return dir;
}

export function cleanUp(): void {
  children.forEach((child) => child.kill('SIGKILL'));
  dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
}

/** Runs a command to its end without blocking the event loop (a hub in this process, or requests in flight, keep going meanwhile). */
export function outpost(args: string[], env: Record<string, string> = {}): Promise<CommandResult> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } });
  children.push(child);
  let [stdout, stderr] = ['', ''];
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout: stdout.trim(), stderr: stderr.trim() })));
}

export interface Served {
  child: ChildProcess;
  url: string;
  /** Everything written so far (grows while it runs). */
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/** Starts `outpost serve` on a free port and resolves once it listens (rejects with its output if it exits first). */
export function serve(dataDir: string, env: Record<string, string> = {}, extra: string[] = []): Promise<Served> {
  return startServing(dataDir, env, extra).listening;
}

/** `outpost serve` as it starts: its standard output so far (before it listens too), and `serve`'s promise. */
export function startServing(dataDir: string, env: Record<string, string> = {}, extra: string[] = []): { stdout: () => string; listening: Promise<Served> } {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir, '--rate-limit', '0', ...extra], { env: { ...process.env, ...env } });
  children.push(child);
  let [stdout, stderr] = ['', ''];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listening = new Promise<Served>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/[\d.:]+)/.exec(stdout);
      if (match) resolve({ child, url: match[1], stdout: () => stdout, stderr: () => stderr, exited });
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    void exited.then((code) => reject(new Error(`outpost serve exited (${code}): ${stdout}${stderr}`)));
  });
  return { stdout: () => stdout, listening };
}

/** A new personal access token of the user with that email (`outpost tokens create`), by default with the command's default scope. */
export async function accessToken(dataDir: string, email: string, scope?: string): Promise<string> {
  const created = await outpost(['tokens', 'create', '--email', email, ...(scope ? ['--scope', scope] : []), '--data-dir', dataDir]);
  return (JSON.parse(created.stdout) as { access_token: string }).access_token;
}

/** SIGTERM, then the exit code. */
export async function stop(served: Served): Promise<number | null> {
  served.child.kill('SIGTERM');
  return served.exited;
}
