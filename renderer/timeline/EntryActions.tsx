import { useSession } from '../session/sessionStore.js';
import { api } from '../api/client.js';
import { askToConfirm } from '../shell/ConfirmDialog.js';

export type ActivityKind = 'note' | 'call' | 'visit';

const PATHS: Record<ActivityKind, string> = { note: '/v2/notes', call: '/v2/calls', visit: '/v2/visits' };

/** Whether the signed-in user may correct or delete an activity: the one who recorded it, or an admin (as the API rules). */
export function useMayChange(creatorId: number | null): boolean {
  const user = useSession((s) => s.user);
  return !!user && (user.role === 'admin' || user.id === creatorId);
}

interface Props {
  kind: ActivityKind;
  id: number;
  /** What the entry says, for the question ("Delete this note?" then its first words). */
  preview: string | null;
  onEdit(): void;
  onDeleted(): void;
}

/**
 * An activity's Edit and Delete, named by what they act on ("Edit note").
 * Delete asks once in the app's confirmation dialog, which shows the API's
 * refusal if it refuses.
 */
export function EntryActions({ kind, id, preview, onEdit, onDeleted }: Props) {
  const remove = () => askToConfirm({
    title: `Delete this ${kind}?`,
    detail: `${preview ? `“${shortened(preview)}” ` : ''}This cannot be undone.`,
    confirm: 'Delete',
    doing: 'Deleting…',
    failed: `The ${kind} could not be deleted.`,
    action: async () => {
      await api.remove(`${PATHS[kind]}/${id}`);
      onDeleted();
    },
  });
  return (
    <span className="entry-actions">
      <button type="button" className="link" aria-label={`Edit ${kind}`} onClick={onEdit}>Edit</button>
      <button type="button" className="link danger" aria-label={`Delete ${kind}`} onClick={() => void remove()}>Delete</button>
    </span>
  );
}

/** A long text's first words, so the question stays short. */
function shortened(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 80 ? `${oneLine.slice(0, 79)}…` : oneLine;
}
