// Where the desktop app keeps its hub credentials between runs: a file in the
// user-data folder, encrypted with the OS keychain through Electron's
// safeStorage. Where the OS offers no encryption, nothing is written: the rep
// signs in again next time rather than leave a token readable on disk.
// Pure Node: main.ts passes safeStorage in as the cipher.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

export interface Cipher {
  isAvailable(): boolean;
  encrypt(text: string): Buffer;
  decrypt(data: Buffer): string;
}

export interface HubCredentials {
  hubUrl: string;
  access_token: string;
  refresh_token: string | null;
  /** The rep's user on the hub (as `GET /v2/users/self` answers): the desktop app acts for this user, also when it starts offline. */
  user?: { id: number } & Record<string, unknown>;
}

export class CredentialStore {
  constructor(private readonly file: string, private readonly cipher: Cipher) {}

  /** Keeps the credentials for the next run; false when they could only be kept in memory. */
  save(credentials: HubCredentials): boolean {
    if (!this.cipher.isAvailable()) return false;
    writeFileSync(this.file, this.cipher.encrypt(JSON.stringify(credentials)), { mode: 0o600 });
    return true;
  }

  /** The saved credentials, or null (none, or unreadable: then the rep signs in again). */
  load(): HubCredentials | null {
    if (!existsSync(this.file) || !this.cipher.isAvailable()) return null;
    try {
      const parsed = JSON.parse(this.cipher.decrypt(readFileSync(this.file))) as HubCredentials;
      return typeof parsed.hubUrl === 'string' && typeof parsed.access_token === 'string' ? parsed : null;
    } catch {
      return null;
    }
  }

  /** Disconnecting forgets the credentials; the local data stays. */
  clear(): void {
    rmSync(this.file, { force: true });
  }
}
