/**
 * Functions compiled from source the engine writes itself (hot loops of a
 * first sync, replica/localRecords.ts). Node allows it; the browser's worker
 * runs under a Content-Security-Policy without 'unsafe-eval' (codegen.web.ts),
 * where the caller builds the same function from closures instead.
 */
export function compiledFunction<F>(parameter: string, body: string): ((argument: unknown) => F) | null {
  return new Function(parameter, body) as (argument: unknown) => F;
}
