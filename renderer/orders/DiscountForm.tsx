import { useState, type FormEvent } from 'react';
import type { Order } from '../../shared/resources/order.js';
import { api } from '../api/client.js';
import { formErrorsOf } from '../api/formErrors.js';
import { FormField } from '../leads/FormField.js';

/** The order's discount, a percent of every subtotal; editable unless changes are turned off. */
export function DiscountForm({ order, editable, onSaved }: { order: Order; editable: boolean; onSaved(): void }) {
  const [discount, setDiscount] = useState(String(order.discount));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const text = discount.trim();
    setSaving(true);
    try {
      // A percent, not money: a number as the API takes percents; text it cannot read goes as typed, for the API to refuse.
      await api.update(`/v2/orders/${order.id}`, { discount: /^\d+(\.\d+)?$/.test(text) ? Number(text) : text });
      setError(null);
      onSaved();
    } catch (err) {
      const errors = formErrorsOf(err, { discount: 'Discount %' }, 'The discount could not be saved.');
      setError(errors.discount ?? errors._);
    } finally {
      setSaving(false);
    }
  };

  if (!editable) return <p>Discount: {String(order.discount)}%</p>;
  return (
    <form className="inline-form discount-form" aria-label="Discount" onSubmit={(e) => void submit(e)} noValidate>
      <FormField label="Discount %" error={error ?? undefined}>
        <input type="text" inputMode="decimal" value={discount} onChange={(e) => setDiscount(e.target.value)} />
      </FormField>
      <button type="submit" disabled={saving || discount.trim() === String(order.discount)}>{saving ? 'Saving…' : 'Save discount'}</button>
    </form>
  );
}
