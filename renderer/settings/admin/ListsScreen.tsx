import { useState } from 'react';
import { api } from '../../api/client.js';
import { DataTable } from '../../lists/DataTable.js';
import { ConfirmDelete } from '../../shell/ConfirmDelete.js';
import { AddByName } from './AddByName.js';
import { AdminScreen, useIsAdmin } from './AdminScreen.js';
import { NameEditor } from './NameEditor.js';
import { inWordsOnFailure, useAdminList } from './useAdminList.js';

interface Entry {
  id: number;
  name: string;
}

interface ListKind {
  path: string;
  title: string;
  /** One entry, in a sentence ("lead source"). */
  noun: string;
  /** What the records that named a deleted entry lose ("Leads that have it keep everything else"). */
  inUse: string;
}

const KINDS: ListKind[] = [
  { path: '/v2/lead_sources', title: 'Lead sources', noun: 'lead source', inUse: 'Leads from it are kept, without a source.' },
  { path: '/v2/deal_sources', title: 'Deal sources', noun: 'deal source', inUse: 'Deals from it are kept, without a source.' },
  { path: '/v2/loss_reasons', title: 'Loss reasons', noun: 'loss reason', inUse: 'Deals lost for it are kept, without a loss reason.' },
  { path: '/v2/deal_unqualified_reasons', title: 'Deal unqualified reasons', noun: 'deal unqualified reason', inUse: 'Deals with it are kept, without a reason.' },
  { path: '/v2/lead_unqualified_reasons', title: 'Lead unqualified reasons', noun: 'lead unqualified reason', inUse: 'Leads with it are kept, without a reason.' },
];

/** Settings → Sources and reasons: the small lists leads and deals pick from. */
export function ListsScreen() {
  return (
    <AdminScreen title="Sources and reasons" intro="Where leads and deals come from, and why deals are lost or leads and deals turn out unqualified.">
      <div className="admin-lists">
        {KINDS.map((kind) => <NamedListCard key={kind.path} kind={kind} />)}
      </div>
    </AdminScreen>
  );
}

function NamedListCard({ kind }: { kind: ListKind }) {
  const canEdit = useIsAdmin();
  const { rows, error, reload } = useAdminList<Entry>(kind.path, { sort_by: 'name' });
  const [renaming, setRenaming] = useState<number | null>(null);

  return (
    <section className="card admin-card" aria-label={kind.title}>
      <h2>{kind.title}</h2>
      {error && <p className="form-error" role="alert">{error}</p>}
      {rows === null && !error && <p className="muted">Loading…</p>}
      {rows?.length === 0 && <p className="muted">None yet.</p>}
      {rows !== null && rows.length > 0 && (
        <DataTable label={kind.title} framed={false} className="admin-table named-table" rows={rows} rowKey={(r) => r.id} rowLabel={(r) => r.name} columns={[
          {
            label: 'Name', kind: 'title', cell: (entry) => renaming === entry.id
              ? <NameEditor label="Name" what={`${kind.noun} ${entry.name}`} value={entry.name} onDone={() => setRenaming(null)}
                onSave={async (name) => {
                  await api.update(`${kind.path}/${entry.id}`, { name });
                  reload();
                }} />
              : entry.name,
          },
          canEdit && {
            label: 'Actions', kind: 'actions', cell: (entry) => renaming !== entry.id && (
              <div className="row-actions">
                <button type="button" aria-label={`Rename ${kind.noun} ${entry.name}`} onClick={() => setRenaming(entry.id)}>Rename</button>
                <ConfirmDelete name={`${kind.noun} ${entry.name}`} question={`Delete ${entry.name}? ${kind.inUse}`}
                  onConfirm={() => inWordsOnFailure(async () => {
                    await api.remove(`${kind.path}/${entry.id}`);
                    reload();
                  }, `${entry.name} could not be deleted.`)} />
              </div>
            ),
          },
        ]} />
      )}
      {canEdit && (
        <AddByName label={`New ${kind.noun}`} button="Add" onAdd={async (name) => {
          await api.create(kind.path, { name });
          reload();
        }} />
      )}
    </section>
  );
}
