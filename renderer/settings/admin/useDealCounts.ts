import { useEffect, useState } from 'react';
import { api } from '../../api/client.js';

/**
 * How many deals each stage holds (`count=true` on a one-row page per
 * stage): an admin sees which stages can be deleted. Counts that fail to
 * load are left out rather than shown wrong.
 */
export function useDealCounts(stageIds: readonly number[], version: number): Map<number, number> {
  const [counts, setCounts] = useState(new Map<number, number>());
  const key = stageIds.join(',');
  useEffect(() => {
    let live = true;
    const ids = key === '' ? [] : key.split(',').map(Number);
    void Promise.all(ids.map(async (id) => {
      const page = await api.list('/v2/deals', { stage_id: id, per_page: 1, count: true }).catch(() => null);
      return [id, page?.meta.total_count] as const;
    })).then((pairs) => {
      if (live) setCounts(new Map(pairs.filter((p): p is readonly [number, number] => typeof p[1] === 'number')));
    });
    return () => {
      live = false;
    };
  }, [key, version]);
  return counts;
}
