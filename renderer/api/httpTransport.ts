import { dispositionFilename, isJsonContentType, toQueryString, type ApiRequest, type ApiResponse, type Transport } from '../../shared/bridge.js';
import { FIRST_PARTY_CLIENT_ID, type TokenResponse } from '../../shared/oauth.js';

const STORAGE_KEY = 'outpost.tokens';
// The built-in public client: no secret (RFC 6749 §2.1), hence the empty password.
const CLIENT_AUTH = `Basic ${btoa(`${FIRST_PARTY_CLIENT_ID}:`)}`;

interface StoredTokens {
  access: string;
  refresh?: string;
}

/**
 * The browser transport: fetch against the hub that served the page.
 * Tokens live in sessionStorage (gone when the tab closes; never
 * localStorage), and a 401 is answered by one refresh before giving up.
 */
export class HttpTransport implements Transport {
  private refreshing: Promise<boolean> | null = null;
  onSignedOut: () => void = () => {};

  get signedIn(): boolean {
    return this.tokens() !== null;
  }

  async request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
    let response = await this.send<T>(req);
    if (response.status === 401 && this.tokens()?.refresh && (await this.refresh())) response = await this.send<T>(req);
    if (response.status === 401) {
      sessionStorage.removeItem(STORAGE_KEY);
      this.onSignedOut();
    }
    return response;
  }

  /** The password grant. Returns null on success, else the message to show. */
  async signIn(email: string, password: string): Promise<string | null> {
    const answer = await this.tokenRequest({ grant_type: 'password', username: email, password });
    if ('error' in answer) return answer.error === 'invalid_grant' ? 'The email or password is incorrect.' : answer.message;
    this.store(answer);
    return null;
  }

  async signOut(): Promise<void> {
    const tokens = this.tokens();
    sessionStorage.removeItem(STORAGE_KEY);
    if (tokens?.refresh) {
      await fetch('/oauth2/revoke', {
        method: 'POST',
        headers: { Authorization: CLIENT_AUTH, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: tokens.refresh }),
      }).catch(() => undefined);
    }
  }

  private async send<T>(req: ApiRequest): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const tokens = this.tokens();
    if (tokens) headers.Authorization = `Bearer ${tokens.access}`;
    let body: BodyInit | undefined;
    if (req.upload) {
      headers['Content-Type'] = req.upload.contentType;
      body = req.upload.bytes;
    } else if (req.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(req.body);
    }
    const response = await fetch(req.path + toQueryString(req.query), { method: req.method, headers, body });
    // Decoded keeping a byte order mark: a CSV export may carry one for spreadsheets, and the saved file should too.
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer());
    const requestId = response.headers.get('X-Request-Id') ?? undefined;
    const contentType = response.headers.get('Content-Type') ?? undefined;
    // By type, not by content: an export with nothing in it is still a file.
    if (contentType && !isJsonContentType(contentType)) {
      const filename = dispositionFilename(response.headers.get('Content-Disposition') ?? undefined);
      return { status: response.status, body: null, requestId, text, contentType, filename };
    }
    return { status: response.status, body: text ? (JSON.parse(text) as T) : null, requestId };
  }

  /**
   * Reads a server-sent event stream (`GET path`) until it ends or `signal`
   * aborts, calling `onEvent` for each event. fetch rather than EventSource,
   * which cannot send the Authorization header. Resolves when the stream ends;
   * rejects when it cannot be opened.
   */
  async stream(path: string, onEvent: (event: string, data: string) => void, signal: AbortSignal): Promise<void> {
    const open = () => fetch(path, { headers: { Accept: 'text/event-stream', Authorization: `Bearer ${this.tokens()?.access ?? ''}` }, signal });
    let response = await open();
    if (response.status === 401 && this.tokens()?.refresh && (await this.refresh())) response = await open();
    if (!response.ok || !response.body) throw new Error(`The event stream answered ${response.status}.`);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffered += value;
      for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
        const lines = buffered.slice(0, end).split('\n');
        buffered = buffered.slice(end + 2);
        const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
        const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
        if (data) onEvent(event, data);
      }
    }
  }

  /** One refresh at a time, shared by every request that hit a 401 meanwhile. */
  private refresh(): Promise<boolean> {
    this.refreshing ??= (async () => {
      const answer = await this.tokenRequest({ grant_type: 'refresh_token', refresh_token: this.tokens()?.refresh ?? '' });
      if ('error' in answer) return false;
      this.store(answer);
      return true;
    })().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async tokenRequest(form: Record<string, string>): Promise<TokenResponse | { error: string; message: string }> {
    try {
      const response = await fetch('/oauth2/token', {
        method: 'POST',
        headers: { Authorization: CLIENT_AUTH, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form),
      });
      const body = await response.json();
      return response.ok ? (body as TokenResponse) : { error: body.error, message: body.error_description ?? 'Sign-in failed.' };
    } catch {
      return { error: 'network', message: 'The hub cannot be reached.' };
    }
  }

  private tokens(): StoredTokens | null {
    const text = sessionStorage.getItem(STORAGE_KEY);
    return text ? (JSON.parse(text) as StoredTokens) : null;
  }

  private store(answer: TokenResponse): void {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ access: answer.access_token, refresh: answer.refresh_token }));
  }
}
