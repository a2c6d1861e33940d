import { create } from 'zustand';
import type { User } from '../../shared/resources/user.js';
import type { Account } from '../../shared/resources/account.js';
import { answeredLocally, api, httpTransport } from '../api/client.js';
import { removeEverything, resumeKeptSession, signInKeepingData, signOutRemovingData } from '../local/localMode.js';

type Status = 'loading' | 'signed-out' | 'signed-in';

interface SessionState {
  status: Status;
  user: User | null;
  account: Account | null;
  load(): Promise<void>;
  /** `keepData`: the browser keeps the rep's data (a local engine); else, as on a shared computer, nothing is kept. */
  signIn(email: string, password: string, options?: { keepData?: boolean }): Promise<string | null>;
  signOut(): Promise<void>;
}

/**
 * Who is using the app. In the desktop app the main process acts for the local
 * user, so there is no sign-in; a browser that keeps the rep's data asks its
 * engine worker (offline too); otherwise the hub, with the tab's tokens.
 */
export const useSession = create<SessionState>((set, get) => {
  const signedOut = () => set({ status: 'signed-out', user: null, account: null });
  return {
  status: 'loading',
  user: null,
  account: null,
  async load() {
    if (!answeredLocally() && !httpTransport?.signedIn && !(await resumeKeptSession(signedOut).catch(() => false))) {
      signedOut();
      return;
    }
    try {
      const [user, account] = await Promise.all([api.get<User>('/v2/users/self'), api.get<Account>('/v2/accounts/self')]);
      set({ status: 'signed-in', user, account });
    } catch {
      set({ status: 'signed-out', user: null });
    }
  },
  async signIn(email, password, options = {}) {
    const problem = options.keepData ? await signInKeepingData(email, password, signedOut) : await httpTransport!.signIn(email, password);
    if (problem) return problem;
    await get().load();
    return null;
  },
  async signOut() {
    if (answeredLocally()) await signOutRemovingData();
    else await Promise.all([httpTransport?.signOut(), removeEverything()]);
    signedOut();
  },
  };
});

if (httpTransport) httpTransport.onSignedOut = () => useSession.setState({ status: 'signed-out', user: null });
