// What the desktop app is asked to open from outside: `outpost://` links (a
// link in an email, a calendar entry, another app) and `.vcf` files opened
// with it. Both arrive as command-line arguments on Windows and Linux (first
// launch, or a second launch handed over to the running app) and as
// `open-url` / `open-file` events on macOS. Links become app paths checked
// against the UI's routes, except the hub sign-in's redirect back
// (`outpost://oauth/callback?…`), which stays in the main process; files
// become the text of a vCard for the import preview. Pure Node code (no
// 'electron' import) so it is tested under Vitest.
import { open } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import type { OpenFileEvent } from '../../shared/bridge.js';
import { FIRST_PARTY_APP_REDIRECT_URI } from '../../shared/oauth.js';

export const DEEP_LINK_SCHEME = 'outpost';

/**
 * The screens a link may open (renderer/App.tsx and its route modules):
 * list screens, a new-record form, and a record's page. `:id` is a record id
 * of the hub (a positive integer), `:key` a custom object's key. Anything
 * else (an edit form, the settings of custom objects, unknown paths) is
 * ignored: a link from outside should not land someone half-way into a change.
 */
export const DEEP_LINK_ROUTES: readonly string[] = [
  '/contacts', '/contacts/new', '/contacts/:id',
  '/leads', '/leads/new', '/leads/:id',
  '/deals', '/deals/new', '/deals/:id',
  '/tasks', '/products',
  '/sequences', '/sequences/:id',
  '/enrollments', '/enrollments/:id',
  '/objects', '/objects/:key',
  '/settings', '/sync-issues',
];

const PARAMETERS: Record<string, RegExp> = {
  ':id': /^[1-9][0-9]{0,14}$/,
  ':key': /^[a-z][a-z0-9_]{0,63}$/,
};

/** Longer than any link the app makes; anything longer is not one of ours. */
const MAX_LINK_LENGTH = 2048;

/** Whether `path` (`/contacts/12`) is one of the screens a deep link may open. */
export function isDeepLinkRoute(path: string): boolean {
  const have = path.split('/');
  return DEEP_LINK_ROUTES.some((route) => {
    const want = route.split('/');
    return want.length === have.length && want.every((part, i) => (PARAMETERS[part] ? PARAMETERS[part].test(have[i]) : part === have[i]));
  });
}

/**
 * `outpost://contacts/12` (also `outpost:///contacts/12`, `outpost:contacts/12`,
 * with or without a trailing slash) → `/contacts/12`; null for anything that
 * is not a link to one of DEEP_LINK_ROUTES. Query and fragment are dropped:
 * no screen takes parameters from a link.
 */
export function deepLinkPath(link: string): string | null {
  const path = linkPath(link);
  return path !== null && isDeepLinkRoute(path) ? path : null;
}

/**
 * Whether `link` is the hub sign-in's redirect back to the installed app
 * (`outpost://oauth/callback?code=…&state=…`, FIRST_PARTY_APP_REDIRECT_URI,
 * in the same spellings as other links): the main process hands it to the
 * sign-in waiting for it (hubSignIn.ts AppRedirects); it is never a screen,
 * and its code never reaches the renderer.
 */
export function isOAuthCallback(link: string): boolean {
  return linkPath(link) === OAUTH_CALLBACK_PATH;
}

/** `outpost://contacts/12?x` → `/contacts/12`: an `outpost:` link's host and path as one path; null for anything else. */
function linkPath(link: string): string | null {
  if (link.length > MAX_LINK_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  if (url.protocol !== `${DEEP_LINK_SCHEME}:` || url.username || url.password || url.port) return null;
  // The WHATWG parser keeps a non-special scheme's host as written, so `contacts` in `outpost://contacts/12` is the host.
  const segments = [url.hostname, ...url.pathname.split('/')].filter((segment) => segment !== '');
  return `/${segments.join('/')}`;
}

const OAUTH_CALLBACK_PATH = linkPath(FIRST_PARTY_APP_REDIRECT_URI);

/** What a launch asks the app to open. */
export type LaunchTarget = { kind: 'link'; path: string } | { kind: 'oauth-callback'; link: string } | { kind: 'file'; file: string };

const VCARD_EXTENSIONS = new Set(['.vcf', '.vcard']);

/**
 * The link or vCard file in a command line (`process.argv` at start, or a
 * second instance's argv): the OS passes it as an argument (the .desktop
 * file's `%U`, the Windows registry's `"%1"`). The first argument is the
 * executable; switches (Chromium adds some) are skipped, and so is the main
 * script when running unpackaged. A link that is not one of ours is ignored;
 * the hub sign-in's redirect back is told apart from links to screens.
 */
export function launchTargetOf(argv: readonly string[], workingDirectory = process.cwd()): LaunchTarget | null {
  for (const arg of argv.slice(1)) {
    if (arg.startsWith('-')) continue;
    if (arg.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}:`)) {
      if (isOAuthCallback(arg)) return { kind: 'oauth-callback', link: arg };
      const path = deepLinkPath(arg);
      return path ? { kind: 'link', path } : null;
    }
    if (VCARD_EXTENSIONS.has(extname(arg).toLowerCase())) return { kind: 'file', file: resolve(workingDirectory, arg) };
  }
  return null;
}

/** The largest vCard file the app reads: the engine's import limit (docs/api.md, imports). */
export const MAX_VCARD_BYTES = 5 * 1024 * 1024;

export type VcardFileResult = { ok: true; event: OpenFileEvent } | { ok: false; message: string };

/**
 * Reads a `.vcf` opened with the app, for the renderer's vCard import
 * preview: at most MAX_VCARD_BYTES, UTF-8 (vCard 4.0's only charset; a byte
 * order mark is dropped), and it must hold at least one card. A refusal
 * comes with a message to show the person who opened the file.
 */
export async function readVcardFile(file: string, maxBytes = MAX_VCARD_BYTES): Promise<VcardFileResult> {
  const name = basename(file);
  if (!VCARD_EXTENSIONS.has(extname(file).toLowerCase())) return { ok: false, message: `${name} is not a vCard file (.vcf).` };
  let bytes: Buffer;
  try {
    const handle = await open(file, 'r');
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return { ok: false, message: `${name} is not a file.` };
      if (stat.size > maxBytes) return { ok: false, message: `${name} is larger than ${formatBytes(maxBytes)}, the most Outpost imports at once.` };
      // Read one byte more than allowed, in case the file grew since stat.
      const buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      if (bytesRead > maxBytes) return { ok: false, message: `${name} is larger than ${formatBytes(maxBytes)}, the most Outpost imports at once.` };
      bytes = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (error) {
    return { ok: false, message: `${name} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).` };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, message: `${name} is not UTF-8 text; save it as a vCard 4.0 (UTF-8) file and open it again.` };
  }
  if (!/^BEGIN:VCARD\s*$/im.test(text)) return { ok: false, message: `${name} holds no vCard (no BEGIN:VCARD line).` };
  return { ok: true, event: { kind: 'vcard', name, text } };
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes} bytes`;
}
