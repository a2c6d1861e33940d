import { FormField } from '../leads/FormField.js';
import { useNamedOptions } from '../leads/useNamedOptions.js';
import type { Stage } from '../../shared/resources/deal.js';

interface Props {
  /** The category of the stage the deal is in or going to: only lost and unqualified ones ask why. */
  category: Stage['category'] | undefined;
  lossReasonId: number | null;
  unqualifiedReasonId: number | null;
  errors: { loss_reason_id?: string; unqualified_reason_id?: string };
  onChange(patch: { loss_reason_id?: number | null; unqualified_reason_id?: number | null }): void;
}

const idOf = (value: string) => (value ? Number(value) : null);

/**
 * Why a deal was lost or turned out unqualified, asked when its stage says
 * so, from the lists admins keep in Settings → Sources and reasons.
 */
export function ReasonField({ category, lossReasonId, unqualifiedReasonId, errors, onChange }: Props) {
  const lossReasons = useNamedOptions('/v2/loss_reasons', { sort_by: 'name' });
  const unqualifiedReasons = useNamedOptions('/v2/deal_unqualified_reasons', { sort_by: 'name' });
  if (category === 'lost') {
    return (
      <FormField label="Loss reason" error={errors.loss_reason_id}>
        <select value={lossReasonId ?? ''} onChange={(e) => onChange({ loss_reason_id: idOf(e.target.value) })}>
          <option value="">—</option>
          {lossReasons.map((r) => <option key={r.id} value={r.id}>{r.name}</option>)}
        </select>
      </FormField>
    );
  }
  if (category === 'unqualified') {
    return (
      <FormField label="Unqualified reason" error={errors.unqualified_reason_id}>
        <select value={unqualifiedReasonId ?? ''} onChange={(e) => onChange({ unqualified_reason_id: idOf(e.target.value) })}>
          <option value="">—</option>
          {unqualifiedReasons.map((r) => <option key={r.id} value={r.id}>{r.name}</option>)}
        </select>
      </FormField>
    );
  }
  return null;
}
