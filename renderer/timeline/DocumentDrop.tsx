import { useState, type DragEvent } from 'react';
import { api } from '../api/client.js';
import { refusalText } from '../api/formErrors.js';

/** Attach files by dropping them here or picking them; each becomes a document of the record. */
export function DocumentDrop({ resource, onSaved }: { resource: { type: string; id: number }; onSaved(): void }) {
  const [over, setOver] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const upload = async (files: FileList | null) => {
    if (!files) return;
    try {
      for (const file of Array.from(files)) {
        // The query apart from the path: the engine on this device (desktop, browser) admits bare paths only.
        await api.upload('/v2/documents', file, { resource_type: resource.type, resource_id: resource.id, name: file.name });
      }
      setError(null);
      onSaved();
    } catch (err) {
      setError(refusalText(err, 'The file could not be attached.'));
    }
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    void upload(event.dataTransfer.files);
  };

  return (
    <div className={`drop-zone${over ? ' over' : ''}`} onDragOver={(e) => { e.preventDefault(); setOver(true); }} onDragLeave={() => setOver(false)} onDrop={onDrop}>
      <label>
        Drop files here or <span className="link">choose files</span>
        <input type="file" multiple aria-label="Attach files" onChange={(e) => void upload(e.target.files)} />
      </label>
      {error && <span className="field-error" role="alert">{error}</span>}
    </div>
  );
}
