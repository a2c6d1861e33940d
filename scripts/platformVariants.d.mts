// Types of what scripts/platformVariants.mjs exports (used by the browser bundle's guard test and, later, the worker's build).
import type { Plugin as EsbuildPlugin } from 'esbuild';

export const BROWSER_BUILDS: Record<string, string>;
export function browserBuildOf(specifier: string): string | null;
export function webVariantOf(absolutePath: string): string | null;
export function esbuildWebPlatform(): EsbuildPlugin;
export function viteWebPlatform(): { name: string; enforce: 'pre'; resolveId(source: string, importer: string | undefined): string | null };
