import { useEffect, useState } from 'react';
import { useRouter } from '../router/routerStore.js';
import { TaskForm } from '../tasks/TaskForm.js';
import { NoteForm } from '../timeline/NoteForm.js';
import { currentRecord } from './commands.js';
import { useCommands, type QuickCreateKind } from './commandStore.js';
import { useModalDialog } from './useModalDialog.js';
import { RecordPicker } from './RecordPicker.js';

type RecordRef = { type: 'contact' | 'lead' | 'deal'; id: number };

const TITLES: Record<QuickCreateKind, string> = { task: 'New task', note: 'New note' };

/**
 * A task or note made from anywhere (a shortcut, the palette, the desktop
 * menu) with the forms the record pages use. On a record's page it belongs
 * to that record; elsewhere a task stands alone and a note (which always
 * belongs to a record) asks for one first.
 */
export function QuickCreateDialog({ kind }: { kind: QuickCreateKind }) {
  const { closeQuickCreate, created } = useCommands();
  const path = useRouter((s) => s.path);
  const [onPage] = useState(() => currentRecord(path));
  const [attach, setAttach] = useState(true);
  const [picked, setPicked] = useState<(RecordRef & { name: string }) | null>(null);
  const dialog = useModalDialog();
  const record: RecordRef | null = picked ?? (attach ? onPage : null);

  // The record picked, the note's text is next.
  useEffect(() => {
    if (picked) dialog.current?.querySelector('textarea')?.focus();
  }, [picked, dialog]);

  return (
    <dialog ref={dialog} className="card dialog quick-create" aria-labelledby="quick-create-title" onCancel={(e) => (e.preventDefault(), closeQuickCreate())}>
      <div className="dialog-form">
        <h2 id="quick-create-title">{TITLES[kind]}</h2>
        {onPage && (
          <label className="check">
            <input type="checkbox" checked={attach} onChange={(e) => setAttach(e.target.checked)} disabled={kind === 'note'} /> For the {onPage.type} on this page
          </label>
        )}
        {picked && <p>For {picked.type} <b>{picked.name}</b> <button type="button" className="link" onClick={() => setPicked(null)}>Change</button></p>}
        {kind === 'task' && <TaskForm resource={record ?? undefined} onCreated={() => created('Task added.')} />}
        {kind === 'note' && (record
          ? <NoteForm resource={record} onSaved={() => created('Note added.')} />
          : <RecordPicker label="Which contact, lead or deal is it about?" onPick={(r) => setPicked({ type: r.type, id: r.id, name: r.name })} />)}
        <div className="actions">
          <button type="button" onClick={closeQuickCreate}>Cancel</button>
        </div>
      </div>
    </dialog>
  );
}
