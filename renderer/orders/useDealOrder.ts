import { useCallback, useEffect, useState } from 'react';
import type { LineItem, Order } from '../../shared/resources/order.js';
import { api } from '../api/client.js';
import { fetchPages } from '../leads/usePagedList.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { refusalText } from '../api/formErrors.js';

/** Line items read per page; an order with more than this many pages is not one a person builds by hand. */
const LINE_ITEMS_PER_PAGE = 100;
const MAX_LINE_ITEM_PAGES = 10;

export interface DealOrder {
  /** Undefined while loading; null when the deal has no order. */
  order: Order | null | undefined;
  lines: LineItem[];
  /** The API's refusal to show orders (a plan without them names the plan), or a load failure. */
  loadError: string | null;
  reload(): void;
}

/** A deal's order (at most one) and its line items, read again after every change and on sync. */
export function useDealOrder(dealId: number): DealOrder {
  const [order, setOrder] = useState<Order | null | undefined>(undefined);
  const [lines, setLines] = useState<LineItem[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  useRefreshOnSync(reload);

  useEffect(() => {
    let live = true;
    loadOrder(dealId).then(
      (loaded) => {
        if (!live) return;
        setOrder(loaded.order);
        setLines(loaded.lines);
        setLoadError(null);
      },
      (err) => live && setLoadError(refusalText(err, 'The order could not be loaded.')),
    );
    return () => {
      live = false;
    };
  }, [dealId, version]);

  return { order, lines, loadError, reload };
}

async function loadOrder(dealId: number): Promise<{ order: Order | null; lines: LineItem[] }> {
  const found = await api.list<Order>('/v2/orders', { deal_id: dealId, per_page: 1 });
  const order = found.items[0]?.data ?? null;
  if (!order) return { order, lines: [] };
  const { rows } = await fetchPages<LineItem>(`/v2/orders/${order.id}/line_items`, {}, LINE_ITEMS_PER_PAGE, 1, MAX_LINE_ITEM_PAGES);
  return { order, lines: rows };
}
