// Types of the checks scripts/verify-dist.mjs exports (used by test/electron/distLayout.test.ts).

interface PlatformOptions {
  target?: unknown;
  icon?: string;
  [option: string]: unknown;
}

/** electron-builder's configuration, as app-builder-lib loads it (the parts the checks read). */
export interface BuilderConfig {
  linux: PlatformOptions;
  win: PlatformOptions;
  mac: PlatformOptions;
  protocols?: unknown;
  fileAssociations?: unknown;
  npmRebuild?: boolean;
  asarUnpack?: unknown;
  publish?: unknown;
  [option: string]: unknown;
}

export const EXPECTED_FILES: readonly string[];
/** The driver files a worker thread loads from app.asar.unpacked. */
export const WORKER_DRIVER_FILES: readonly string[];
export function loadConfig(projectDir?: string): Promise<BuilderConfig>;
/** Throws electron-builder's own message when the configuration does not match its schema. */
export function validateConfig(config: BuilderConfig): Promise<void>;
export function checkConfig(config: BuilderConfig, projectDir?: string): string[];
/** Every file of an asar archive: path (with /) → whether it was left unpacked. */
export function asarEntries(archive: string): Map<string, boolean>;
export function requiredPackages(bundleText: string): string[];
export function checkLayout(entries: Map<string, boolean>, read: (path: string) => string): string[];
export function checkDesktopEntry(entry: string): { fields: Record<string, string>; problems: string[] };
