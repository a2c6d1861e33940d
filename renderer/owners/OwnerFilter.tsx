import { ownerChoices, useOwners } from './useOwners.js';

interface Props {
  /** The `owner_id` filter as the list sends it: a user's id, or '' for anyone's. */
  value: string;
  onChange(ownerId: string): void;
  /** The choice that does not narrow the list. */
  anyLabel?: string;
}

/**
 * A list's filter by owner, labelled "Owner": anyone's records, "Me" first,
 * then the team by name (deactivated users last, said so). One control for
 * every list, so they all read alike.
 */
export function OwnerFilter({ value, onChange, anyLabel = 'Any owner' }: Props) {
  const { users, me } = useOwners();
  const choices = ownerChoices(users, me?.id ?? null);
  // A smart list may name a user not loaded yet: keep its value shown rather than falling back to "any".
  const unknown = value !== '' && !choices.some((u) => String(u.id) === value);
  return (
    <select aria-label="Owner" value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{anyLabel}</option>
      {choices.map((u) => (
        <option key={u.id} value={u.id}>{u.id === me?.id ? 'Me' : u.status === 'active' ? u.name : `${u.name} (deactivated)`}</option>
      ))}
      {unknown && <option value={value}>User {value}</option>}
    </select>
  );
}
