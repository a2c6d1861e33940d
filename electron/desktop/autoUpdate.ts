// Automatic updates: electron-updater reads the feed electron-builder's
// `publish` settings describe (electron-builder.yml; the installer carries it
// as resources/app-update.yml). Off unless turned on, because a company's IT
// usually decides which version its reps run: OUTPOST_AUTO_UPDATE=1 in the
// environment, or `"autoUpdate": true` in desktop-settings.json in the
// user-data folder (the environment wins, so IT can also force it off).
// Only a packaged app updates itself. Pure Node code (no 'electron' import).
import { readFileSync } from 'node:fs';

export const DESKTOP_SETTINGS_FILE = 'desktop-settings.json';

export interface DesktopSettings {
  autoUpdate?: boolean;
}

/** The settings file, or {} when it is missing or not a JSON object. */
export function readDesktopSettings(file: string): DesktopSettings {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as DesktopSettings) : {};
  } catch {
    return {};
  }
}

const ON = new Set(['1', 'true', 'yes', 'on']);
const OFF = new Set(['0', 'false', 'no', 'off']);

export function autoUpdateEnabled(env: NodeJS.ProcessEnv, settings: DesktopSettings, isPackaged: boolean): boolean {
  if (!isPackaged) return false;
  const fromEnv = env.OUTPOST_AUTO_UPDATE?.trim().toLowerCase();
  if (fromEnv && ON.has(fromEnv)) return true;
  if (fromEnv && OFF.has(fromEnv)) return false;
  return settings.autoUpdate === true;
}

/** The part of electron-updater's `autoUpdater` used here. */
export interface Updater {
  checkForUpdatesAndNotify(): Promise<unknown>;
}

/**
 * Starts the update check with electron-updater when it is installed
 * (a dependency only a release needs); says why not otherwise.
 * `load` is a require that the bundler leaves alone.
 */
export async function startAutoUpdate(load: (name: string) => unknown, log: (message: string) => void): Promise<void> {
  let updater: Updater | undefined;
  try {
    updater = (load('electron-updater') as { autoUpdater?: Updater }).autoUpdater;
  } catch {
    updater = undefined;
  }
  if (!updater) {
    log('Automatic updates are on, but electron-updater is not installed in this build; no update check.');
    return;
  }
  try {
    await updater.checkForUpdatesAndNotify();
  } catch (error) {
    log(`Update check failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
