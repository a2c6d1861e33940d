import { useState } from 'react';
import type { LineItem, Order } from '../../shared/resources/order.js';
import { api } from '../api/client.js';
import { formatMoney, sumDecimals } from '../deals/money.js';
import { CHANGES_OFF_NOTICE, useCommerceAccess } from '../products/useCommerceAccess.js';
import { LineItemForm } from './LineItemForm.js';
import { DiscountForm } from './DiscountForm.js';
import { lineTotal } from './orderTotals.js';
import { useDealOrder } from './useDealOrder.js';
import { DataTable } from '../lists/DataTable.js';
import { refusalText } from '../api/formErrors.js';
import { askToConfirm } from '../shell/ConfirmDialog.js';

/**
 * A deal's order on its page: started with one click, then its line items,
 * the discount and the totals per currency (the order's own, as the API computes them).
 * While an admin has turned changes off it is read only; whatever the API
 * refuses (a plan without orders, say) is shown in its own words.
 */
export function OrderPanel({ dealId }: { dealId: number }) {
  const { order, lines, loadError, reload } = useDealOrder(dealId);
  const { changesAllowed } = useCommerceAccess();
  const [error, setError] = useState<string | null>(null);

  // Every change reloads the order, so what is shown is what the API keeps.
  const act = async (action: () => Promise<unknown>, fallback: string) => {
    try {
      await action();
      setError(null);
    } catch (err) {
      setError(refusalText(err, fallback));
    }
    reload();
  };
  const start = () => act(() => api.create('/v2/orders', { deal_id: dealId }), 'The order could not be started.');
  const removeOrder = async (current: Order) => {
    if (!(await askToConfirm({ title: 'Delete this order?', detail: 'All its line items go with it. This cannot be undone.', confirm: 'Delete' }))) return;
    void act(() => api.remove(`/v2/orders/${current.id}`), 'The order could not be deleted.');
  };

  return (
    <section className="card order-panel" aria-label="Order">
      <h2>Order</h2>
      {loadError && <p className="form-error" role="alert">{loadError}</p>}
      {!loadError && order === undefined && <p className="muted">Loading…</p>}
      {!loadError && order !== undefined && !changesAllowed && <p className="notice" role="note">{CHANGES_OFF_NOTICE}</p>}
      {!loadError && order === null && (
        changesAllowed
          ? <button type="button" className="primary" onClick={() => void start()}>Start an order</button>
          : <p className="muted">This deal has no order.</p>
      )}
      {!loadError && order && (
        <>
          <LineItemsTable lines={lines} onRemove={changesAllowed ? (line) => void act(() => api.remove(`/v2/orders/${order.id}/line_items/${line.id}`), 'The line item could not be removed.') : null} />
          {changesAllowed && <LineItemForm orderId={order.id} onAdded={reload} />}
          <DiscountForm key={`${order.id}-${order.discount}`} order={order} editable={changesAllowed} onSaved={reload} />
          <OrderTotals order={order} />
          {changesAllowed && (
            <div className="actions">
              <button type="button" className="danger" onClick={() => void removeOrder(order)}>Delete order</button>
            </div>
          )}
        </>
      )}
      {error && <p className="form-error" role="alert">{error}</p>}
    </section>
  );
}

function LineItemsTable({ lines, onRemove }: { lines: LineItem[]; onRemove: ((line: LineItem) => void) | null }) {
  if (lines.length === 0) return <p className="muted">No line items yet.</p>;
  return (
    <DataTable label="Line items" framed={false} className="line-items" rows={lines} rowKey={(line) => line.id} rowLabel={(line) => line.name} columns={[
      { label: 'Product', kind: 'title', cell: (line) => <>{line.name}{line.sku && <span className="muted"> · {line.sku}</span>}</> },
      { label: 'Quantity', kind: 'number', cell: (line) => line.quantity },
      { label: 'Variation', kind: 'number', cell: (line) => `${String(line.variation)}%` },
      { label: 'Unit price', kind: 'number', cell: (line) => formatMoney(line.price, line.currency) },
      { label: 'Value', kind: 'number', cell: (line) => formatMoney(line.value, line.currency) },
      { label: 'Line total', kind: 'number', cell: (line) => formatMoney(lineTotal(line.value, line.quantity), line.currency) },
      onRemove && {
        label: 'Actions', kind: 'actions', cell: (line) => (
          <button type="button" className="link" aria-label={`Remove line item ${line.name}`} onClick={() => onRemove(line)}>Remove</button>
        ),
      },
    ]} />
  );
}

/**
 * Per currency: subtotal, the discount taken off it, and the total. The
 * engine computes the totals (one place for the rounding rule); the discount
 * shown is their difference, so the three always add up to the cent.
 */
function OrderTotals({ order }: { order: Order }) {
  if (order.totals.length === 0) return null;
  return (
    <dl className="details order-totals" aria-label="Totals">
      {order.totals.map((t) => (
        <div key={t.currency} className="order-total" role="group" aria-label={`Totals in ${t.currency}`}>
          <dt>Subtotal</dt><dd aria-label={`Subtotal in ${t.currency}`}>{formatMoney(t.subtotal, t.currency)}</dd>
          <dt>Discount ({String(order.discount)}%)</dt><dd aria-label={`Discount in ${t.currency}`}>−{formatMoney(sumDecimals([t.subtotal, `-${t.total}`]), t.currency)}</dd>
          <dt>Total</dt><dd aria-label={`Total in ${t.currency}`}><strong>{formatMoney(t.total, t.currency)}</strong></dd>
        </div>
      ))}
    </dl>
  );
}
