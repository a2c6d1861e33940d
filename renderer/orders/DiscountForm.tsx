import { useState } from 'react';
import type { Order } from '../../shared/resources/order.js';
import { api } from '../api/client.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { FormField } from '../forms/FormField.js';
import { AmountInput, amountText, amountWarning, apiPercent } from '../forms/AmountInput.js';

/** The order's discount, a percent of every subtotal; editable unless changes are turned off. */
export function DiscountForm({ order, editable, onSaved }: { order: Order; editable: boolean; onSaved(): void }) {
  const [discount, setDiscount] = useState(() => amountText(order.discount));

  const { saving, errors, submit } = useFormSubmit({ labels: { discount: 'Discount %' }, failure: 'The discount could not be saved.', stays: true }, async () => {
    // A percent, not money: a number as the API takes percents, read as the rep typed it; text it cannot read goes as typed, for the API to refuse.
    await api.update(`/v2/orders/${order.id}`, { discount: apiPercent(discount) });
    onSaved();
  });

  if (!editable) return <p>Discount: {String(order.discount)}%</p>;
  return (
    <form className="inline-form discount-form" aria-label="Discount" onSubmit={submit} noValidate>
      <FormField label="Discount %" error={errors.discount ?? errors._} warning={amountWarning(discount, 'the discount')}>
        <AmountInput value={discount} onChange={setDiscount} />
      </FormField>
      <button type="submit" disabled={saving || apiPercent(discount) === order.discount}>{saving ? 'Saving…' : 'Save discount'}</button>
    </form>
  );
}
