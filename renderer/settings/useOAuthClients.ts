import { useCallback, useEffect, useState } from 'react';
import type { OAuthClient, OAuthClientInput } from '../../shared/resources/oauthClient.js';
import { api } from '../api/client.js';

export interface OAuthClientsState {
  /** The registered applications, or null until the first answer. */
  clients: OAuthClient[] | null;
  /** Why the list could not be loaded, or null. */
  loadError: string | null;
  /** Registers an application; the answer carries the secret, once. Throws ApiFailure on refusal. */
  add(input: OAuthClientInput): Promise<OAuthClient>;
  /** Removes an application; its tokens stop working. Throws ApiFailure on refusal. */
  remove(clientId: string): Promise<void>;
}

/** The account's registered OAuth applications (admins only), reloaded after every change. */
export function useOAuthClients(): OAuthClientsState {
  const [clients, setClients] = useState<OAuthClient[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  // Bumped after every change, to load the list again.
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    api.list<OAuthClient>('/v2/oauth_clients').then(
      (page) => {
        if (!live) return;
        setClients(page.items.map((i) => i.data));
        setLoadError(null);
      },
      () => live && setLoadError('The applications could not be loaded.'),
    );
    return () => {
      live = false;
    };
  }, [version]);

  const add = useCallback(async (input: OAuthClientInput) => {
    const created = await api.create<OAuthClient>('/v2/oauth_clients', input);
    setVersion((v) => v + 1);
    return created;
  }, []);

  const remove = useCallback(async (clientId: string) => {
    await api.remove(`/v2/oauth_clients/${encodeURIComponent(clientId)}`);
    setClients((list) => list?.filter((c) => c.client_id !== clientId) ?? null);
    setVersion((v) => v + 1);
  }, []);

  return { clients, loadError, add, remove };
}
