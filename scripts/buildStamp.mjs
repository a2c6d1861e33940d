// Whether a build is current: the record of what it was built from and what it wrote, kept in a stamp file
// beside the build (not in it, so it is never packaged). Both the web UI's build (build-web-if-stale.mjs)
// and the command's (build-cli.mjs) use it. Each file is recorded with its size, modification time and a
// hash of its contents: a file whose size and time are unchanged is taken as unchanged, which keeps the
// check to a stat per file (the `outpost` command makes it at every start); one whose time changed (a
// checkout, a save without changes) is read and hashed, so "changed" is by content, not by time.
// Only Node's own modules here: the command imports this before anything else.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every file under `paths` (folders walked, files as they are), relative to `root` with forward slashes, sorted. */
export function filesUnder(root, paths) {
  const walk = (path) => {
    if (!existsSync(path)) return [];
    if (!statSync(path).isDirectory()) return [path];
    return readdirSync(path, { withFileTypes: true }).flatMap((e) => (e.isDirectory() || e.isFile() ? walk(join(path, e.name)) : []));
  };
  return paths.flatMap((path) => walk(join(root, path))).map((file) => relative(root, file).split('\\').join('/')).sort();
}

const hashOf = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Each file's size, time and hash, for the stamp. */
function describe(root, files) {
  return Object.fromEntries(files.map((file) => {
    const path = join(root, file);
    const { size, mtimeMs } = statSync(path);
    return [file, { size, mtimeMs, hash: hashOf(path) }];
  }));
}

/** Whether a file is as recorded: the same size and time, else the same contents. */
function unchanged(root, file, recorded) {
  const path = join(root, file);
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return false;
  }
  if (stat.size !== recorded.size) return false;
  return stat.mtimeMs === recorded.mtimeMs || hashOf(path) === recorded.hash;
}

export function readStamp(stampFile) {
  try {
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
    return stamp && typeof stamp.inputs === 'object' && typeof stamp.outputs === 'object' ? stamp : null;
  } catch {
    return null;
  }
}

/**
 * Why the build must be made again, or null when it is current. `inputs`: the files it is built from now,
 * when that list is known beforehand (a folder's files; one added or removed makes it stale); without it,
 * the ones the stamp recorded (a bundler's own list of the files it read).
 */
export function staleness(root, stampFile, { inputs, outputs } = {}) {
  const stamp = readStamp(stampFile);
  const expected = outputs ?? Object.keys(stamp?.outputs ?? {});
  if (expected.length === 0 || !expected.every((file) => existsSync(join(root, file)))) return 'no build yet';
  if (!stamp) return 'no record of the last build';
  if (!expected.every((file) => stamp.outputs[file] && unchanged(root, file, stamp.outputs[file]))) return 'the build was changed since';
  const recorded = Object.keys(stamp.inputs);
  if (inputs && (inputs.length !== recorded.length || inputs.some((file) => !Object.hasOwn(stamp.inputs, file)))) return 'its sources changed';
  if (!recorded.every((file) => unchanged(root, file, stamp.inputs[file]))) return 'its sources changed';
  return null;
}

/** Records a build just made. Written to a temporary file and renamed, so a reader never sees half a stamp. */
export function writeStamp(root, stampFile, { inputs, outputs }) {
  const temporary = `${stampFile}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ inputs: describe(root, inputs), outputs: describe(root, outputs) }, null, 1)}\n`);
  renameSync(temporary, stampFile);
}
