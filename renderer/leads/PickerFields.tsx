import { useSession } from '../session/sessionStore.js';
import { useUsers } from '../collaborators/useUsers.js';
import { FormField } from './FormField.js';
import { useNamedOptions } from './useNamedOptions.js';

interface PickerProps {
  value: number | null;
  error?: string;
  onChange(id: number | null): void;
}

/** A lead's or a deal's source, from `/v2/lead_sources` or `/v2/deal_sources`; none is allowed. */
export function SourceField({ path, value, error, onChange }: PickerProps & { path: '/v2/lead_sources' | '/v2/deal_sources' }) {
  const sources = useNamedOptions(path, { sort_by: 'name' });
  return (
    <FormField label="Source" error={error}>
      <select value={value ?? ''} onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}>
        <option value="">—</option>
        {sources.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
      </select>
    </FormField>
  );
}

/** The record's owner; until one is chosen it shows the signed-in user, whom the API makes the owner. */
export function OwnerField({ value, error, onChange }: PickerProps) {
  const me = useSession((s) => s.user);
  const users = useUsers();
  return (
    <FormField label="Owner" error={error}>
      <select value={value ?? me?.id ?? ''} onChange={(e) => onChange(Number(e.target.value))}>
        {users.map((u) => <option key={u.id} value={u.id}>{u.name}</option>)}
      </select>
    </FormField>
  );
}
