import { useState } from 'react';
import type { SearchResult } from '../../shared/resources/recordSearch.js';
import { useRecordSearch } from './useRecordSearch.js';

const TYPE_NAMES = { contact: 'Contact', lead: 'Lead', deal: 'Deal' } as const;

/** Picks the contact, lead or deal something is about, found as in the palette (by name, email or phone). */
export function RecordPicker({ label, onPick }: { label: string; onPick(record: SearchResult): void }) {
  const [text, setText] = useState('');
  const search = useRecordSearch(text, 8);
  return (
    <div className="record-picker">
      <label>
        {label}
        <input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="Name, email or phone" autoComplete="off" />
      </label>
      {search.results.length > 0 && (
        <ul className="record-picker-results" aria-label="Matching records">
          {search.results.map((record) => (
            <li key={`${record.type}-${record.id}`}>
              <button type="button" className="link" onClick={() => onPick(record)}>
                {TYPE_NAMES[record.type]} · {record.name}{record.detail ? <span className="muted"> — {record.detail}</span> : null}
              </button>
            </li>
          ))}
        </ul>
      )}
      {search.status === 'done' && search.results.length === 0 && <p className="muted">No records match.</p>}
    </div>
  );
}
