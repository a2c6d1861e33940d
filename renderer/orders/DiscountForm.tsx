import { useState } from 'react';
import type { Order } from '../../shared/resources/order.js';
import { api } from '../api/client.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { FormField } from '../leads/FormField.js';

/** The order's discount, a percent of every subtotal; editable unless changes are turned off. */
export function DiscountForm({ order, editable, onSaved }: { order: Order; editable: boolean; onSaved(): void }) {
  const [discount, setDiscount] = useState(String(order.discount));

  const { saving, errors, submit } = useFormSubmit({ labels: { discount: 'Discount %' }, failure: 'The discount could not be saved.', stays: true }, async () => {
    const text = discount.trim();
    // A percent, not money: a number as the API takes percents; text it cannot read goes as typed, for the API to refuse.
    await api.update(`/v2/orders/${order.id}`, { discount: /^\d+(\.\d+)?$/.test(text) ? Number(text) : text });
    onSaved();
  });

  if (!editable) return <p>Discount: {String(order.discount)}%</p>;
  return (
    <form className="inline-form discount-form" aria-label="Discount" onSubmit={submit} noValidate>
      <FormField label="Discount %" error={errors.discount ?? errors._}>
        <input type="text" inputMode="decimal" value={discount} onChange={(e) => setDiscount(e.target.value)} />
      </FormField>
      <button type="submit" disabled={saving || discount.trim() === String(order.discount)}>{saving ? 'Saving…' : 'Save discount'}</button>
    </form>
  );
}
