import { create } from 'zustand';
import type { User } from '../../shared/resources/user.js';
import type { Account } from '../../shared/resources/account.js';
import { api, httpTransport, isDesktop } from '../api/client.js';

type Status = 'loading' | 'signed-out' | 'signed-in';

interface SessionState {
  status: Status;
  user: User | null;
  account: Account | null;
  load(): Promise<void>;
  signIn(email: string, password: string): Promise<string | null>;
  signOut(): Promise<void>;
}

/** Who is using the app. In the desktop app the main process acts for the local user, so there is no sign-in. */
export const useSession = create<SessionState>((set, get) => ({
  status: 'loading',
  user: null,
  account: null,
  async load() {
    if (!isDesktop && !httpTransport?.signedIn) {
      set({ status: 'signed-out', user: null });
      return;
    }
    try {
      const [user, account] = await Promise.all([api.get<User>('/v2/users/self'), api.get<Account>('/v2/accounts/self')]);
      set({ status: 'signed-in', user, account });
    } catch {
      set({ status: 'signed-out', user: null });
    }
  },
  async signIn(email, password) {
    const problem = await httpTransport!.signIn(email, password);
    if (problem) return problem;
    await get().load();
    return null;
  },
  async signOut() {
    await httpTransport?.signOut();
    set({ status: 'signed-out', user: null, account: null });
  },
}));

if (httpTransport) httpTransport.onSignedOut = () => useSession.setState({ status: 'signed-out', user: null });
