// The hub's sign-in and consent page driven as a browser without JavaScript
// would: GET /oauth2/authorize, then its form posted back (hidden fields, the
// CSRF cookie) with Allow or Deny. Redirects are not followed, so a test reads
// where the hub sends the browser from the Location header, whatever its scheme.

export interface ConsentPage {
  response: Response;
  html: string;
  /** The form's hidden fields, unescaped. */
  hidden: Record<string, string>;
  /** The CSRF cookie the page set. */
  cookie: string | undefined;
}

export interface Decision {
  response: Response;
  location: string | null;
  html: string;
}

/** GET /oauth2/authorize as a browser: the page, its form fields and the CSRF cookie. */
export async function openConsent(hubUrl: string, params: Record<string, string>): Promise<ConsentPage> {
  const response = await fetch(`${hubUrl}/oauth2/authorize?${new URLSearchParams(params)}`, { redirect: 'manual' });
  const html = await response.text();
  const hidden = Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], unescapeHtml(m[2])]));
  const cookie = /outpost_csrf=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  return { response, html, hidden, cookie };
}

/** Posts the consent form back (Allow or Deny) as the page would, returning the answer without following redirects. */
export async function decide(
  hubUrl: string,
  page: ConsentPage,
  decision: 'approve' | 'deny',
  who: { email: string; password: string },
  override: Record<string, string> = {},
): Promise<Decision> {
  const form = { ...page.hidden, username: who.email, password: who.password, decision, ...override };
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' };
  if (page.cookie) headers.Cookie = `outpost_csrf=${page.cookie}`;
  const response = await fetch(`${hubUrl}/oauth2/authorize`, { method: 'POST', headers, body: new URLSearchParams(form), redirect: 'manual' });
  return { response, location: response.headers.get('location'), html: await response.text() };
}

function unescapeHtml(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
