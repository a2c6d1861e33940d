import { useEffect, useState } from 'react';
import { api } from '../api/client.js';

export interface Outcome {
  id: number;
  name: string;
}

/** The account's call or visit outcomes, for the logging forms' pickers. */
export function useOutcomes(path: '/v2/call_outcomes' | '/v2/visit_outcomes'): Outcome[] {
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  useEffect(() => {
    let live = true;
    api.list<Outcome>(path, { per_page: 100 }).then((page) => live && setOutcomes(page.items.map((i) => i.data)), () => undefined);
    return () => {
      live = false;
    };
  }, [path]);
  return outcomes;
}
