import vm from 'node:vm';

/**
 * A regular expression tested with a time limit, Node's side (boundedRegexp.web.ts
 * is the browser's). It runs in a V8 context of its own, made on first use.
 */
let context: { matchContext: vm.Context; matchScript: vm.Script } | null = null;

/** Whether `value` matches the JavaScript `pattern` (flag u), or 'timeout' past `timeoutMs`; false when the pattern does not compile. */
export function regexpTestWithin(pattern: string, value: string, timeoutMs: number): boolean | 'timeout' {
  context ??= { matchContext: vm.createContext({ pattern: '', value: '' }), matchScript: new vm.Script('new RegExp(pattern, "u").test(value)') };
  Object.assign(context.matchContext, { pattern, value });
  try {
    return context.matchScript.runInContext(context.matchContext, { timeout: timeoutMs }) === true;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return 'timeout';
    return false;
  }
}
