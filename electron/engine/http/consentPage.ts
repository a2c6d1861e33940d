import { createHash } from 'node:crypto';
import type { Scope } from '../../../shared/oauth.js';

/**
 * The authorization endpoint's pages: sign in and allow or deny an
 * application, and the error page shown instead of redirecting when the
 * request names no valid application or redirect URI. Plain HTML forms,
 * no JavaScript (they work with scripts off), every value escaped.
 */

const STYLE = `
body { font: 15px/1.5 system-ui, sans-serif; background: #f4f5f7; color: #1d2433; margin: 0; }
main { max-width: 26rem; margin: 8vh auto; background: #fff; padding: 2rem; border-radius: 10px; box-shadow: 0 1px 4px #0002; }
h1 { font-size: 1.25rem; margin: 0 0 1rem; }
ul { padding-left: 1.2rem; }
label { display: block; margin: .75rem 0 .25rem; font-weight: 600; }
input { width: 100%; box-sizing: border-box; padding: .5rem; border: 1px solid #b8bfcc; border-radius: 6px; font: inherit; }
.actions { display: flex; gap: .75rem; margin-top: 1.25rem; }
button { flex: 1; padding: .6rem; border-radius: 6px; border: 1px solid #2456c8; font: inherit; cursor: pointer; }
button[value=approve] { background: #2456c8; color: #fff; }
button[value=deny] { background: #fff; color: #2456c8; }
[role=alert] { background: #fdecec; color: #8a1c1c; padding: .5rem .75rem; border-radius: 6px; }
.note { color: #5b6475; font-size: .9rem; }
`;

/** The page's one stylesheet, allowed by its hash: no inline style may run otherwise. */
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

const SCOPE_TEXT: Record<Scope, string> = {
  read: 'See your contacts, leads, deals, tasks, notes and the rest of your CRM data',
  write: 'Create, change and delete those records for you',
  profile: 'See your name, email address and account',
  sync: 'Keep a copy of your data on a device and keep it in sync',
};

export interface ConsentView {
  appName: string;
  redirectUri: string;
  scope: Scope[];
  /** Every parameter of the authorization request, carried through the form. */
  hidden: Record<string, string>;
  csrfToken: string;
  email?: string;
  error?: string;
}

export function consentPage(view: ConsentView): string {
  const hidden = Object.entries({ ...view.hidden, csrf_token: view.csrfToken })
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`).join('\n      ');
  return page(`Allow ${view.appName} to use Outpost?`, `
    <h1>Allow <strong>${escape(view.appName)}</strong> to use your Outpost account?</h1>
    <p>It asks to:</p>
    <ul>${view.scope.map((s) => `<li>${escape(SCOPE_TEXT[s])}</li>`).join('')}</ul>
    ${view.error ? `<p role="alert">${escape(view.error)}</p>` : ''}
    <form method="post" action="/oauth2/authorize">
      ${hidden}
      <label for="username">Email</label>
      <input id="username" name="username" type="email" autocomplete="username" value="${escape(view.email ?? '')}" required>
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required>
      <div class="actions">
        <button type="submit" name="decision" value="approve">Allow</button>
        <button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
      </div>
    </form>
    <p class="note">Either way you go back to ${escape(hostOf(view.redirectUri))}.</p>`);
}

export function authorizeErrorPage(message: string): string {
  return page('This sign-in request is not valid', `
    <h1>This sign-in request is not valid</h1>
    <p role="alert">${escape(message)}</p>
    <p class="note">You have not been sent anywhere. Tell the application's makers, or go back to where you came from.</p>`);
}

/**
 * The pages' Content-Security-Policy: nothing but the one stylesheet; forms
 * post only to the hub, and its answer may redirect only to the application
 * (browsers apply form-action to the redirect after a form post too).
 */
export function consentPolicy(redirectUri: string | null): string {
  const target = redirectUri ? ` ${formActionSource(redirectUri)}` : '';
  return `default-src 'none'; style-src ${STYLE_HASH}; form-action 'self'${target}; frame-ancestors 'none'; base-uri 'none'`;
}

function formActionSource(redirectUri: string): string {
  const url = new URL(redirectUri);
  // http(s): the origin; a native app's private scheme (com.example.app:/cb): the scheme.
  return url.protocol === 'http:' || url.protocol === 'https:' ? `${url.origin}${url.pathname}` : url.protocol;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>${escape(title)}</title>
  <style>${STYLE}</style>
</head>
<body><main>${body}
</main></body>
</html>`;
}

/** Where the redirect goes, in words: a web app's host, or the native app behind a private-use scheme. */
function hostOf(uri: string): string {
  try {
    const url = new URL(uri);
    // `outpost://oauth/callback` has a "host" too, but it names no server: the OS hands the link to an app.
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : `the app that opens ${url.protocol} links`;
  } catch {
    return uri;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}
