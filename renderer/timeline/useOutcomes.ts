import { useNamedOptions, type NamedOption } from '../leads/useNamedOptions.js';

export type Outcome = NamedOption;

/** The account's call or visit outcomes, for the logging forms' pickers. */
export function useOutcomes(path: '/v2/call_outcomes' | '/v2/visit_outcomes'): Outcome[] {
  return useNamedOptions<Outcome>(path);
}
