/** Token response of /oauth2/token (spec: OAuth objects). */
export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
}

/**
 * The built-in first-party client used by the web UI and the desktop app.
 * It is a public client in OAuth terms (RFC 6749 §2.1): it cannot keep a
 * secret, so it authenticates with its id and an empty secret. It may use
 * the password and refresh_token grants, and the authorization code grant
 * with PKCE through a loopback or an `outpost:` redirect (RFC 8252), never
 * the implicit grant.
 */
export const FIRST_PARTY_CLIENT_ID = 'outpost-app';
/**
 * The built-in client's redirect URI for the authorization-code grant with
 * PKCE, as the desktop app runs it (RFC 8252): a loopback listener on any free port.
 */
export const FIRST_PARTY_REDIRECT_URI = 'http://127.0.0.1/oauth/callback';
/**
 * The built-in client's other redirect URI, for an installed desktop app: the
 * OS hands `outpost:` links to the app that registered the scheme (RFC 8252
 * §7.1, private-use URI scheme). Only the built-in client may use it.
 */
export const FIRST_PARTY_APP_REDIRECT_URI = 'outpost://oauth/callback';

export const SCOPES = ['read', 'write', 'profile', 'sync'] as const;
export type Scope = (typeof SCOPES)[number];
export const DEFAULT_SCOPE = 'read write profile';
