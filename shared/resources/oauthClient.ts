/**
 * A registered OAuth application (Outpost extension: GET/POST /v2/oauth_clients,
 * DELETE /v2/oauth_clients/:client_id; admins only). The built-in client of the
 * web UI and desktop app is not listed.
 */
export interface OAuthClient {
  client_id: string;
  name: string;
  /** Where the user is sent back after authorizing: https, or http on a loopback host (any port, RFC 8252). */
  redirect_uri: string;
  /** A native or browser app that cannot keep a secret: no secret, PKCE required. */
  public: boolean;
  created_at: string;
  /**
   * Only in the answer to the create request, never again: a 64-hex secret for
   * a confidential client, null for a public one.
   */
  client_secret?: string | null;
}

/** What the create request takes. */
export interface OAuthClientInput {
  name: string;
  redirect_uri: string;
  public: boolean;
}
