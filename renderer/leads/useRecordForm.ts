import { useEffect, useEffectEvent, useState, type FormEvent } from 'react';
import { api } from '../api/client.js';
import { changedFields } from '../api/changedFields.js';
import type { FieldLabels, FieldOf } from '../api/formErrors.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { useRouter } from '../router/routerStore.js';

export interface RecordForm<D> {
  /** Null while the record to edit is loading. */
  draft: D | null;
  setDraft(draft: D): void;
  /** The API's field errors by field name, in the form's words; `_` what no field shows (or a load failure). */
  errors: Record<string, string>;
  saving: boolean;
  submit(event: FormEvent): void;
}

interface Options<T, D> {
  /** The collection's API path (`/v2/leads`) and the app's path of a record's page (`/leads`). */
  apiPath: string;
  pagePath: string;
  noun: string;
  /** The form's fields by API name, as labelled: their errors show by them, in these words. */
  labels: FieldLabels;
  /** The form's name for a field the API names, where they differ (a custom field's `custom_fields.Size`). */
  fieldOf?: FieldOf;
  id: number | null;
  draftOf(record: T | null): D;
  payloadOf(draft: D): Record<string, unknown>;
}

/**
 * The state of a create-or-edit form: loads the record to edit, POSTs the
 * payload or PUTs what changed in it, opens the saved record's page, or
 * keeps the API's field errors for the form to show by its fields.
 */
export function useRecordForm<T extends { id: number }, D>({ apiPath, pagePath, noun, labels, fieldOf, id, draftOf, payloadOf }: Options<T, D>): RecordForm<D> {
  const navigate = useRouter((s) => s.navigate);
  const [draft, setDraft] = useState<D | null>(() => (id === null ? draftOf(null) : null));
  // The payload of the record as loaded: an edit sends only what differs from it.
  const [initialPayload, setInitialPayload] = useState<Record<string, unknown>>({});
  const loaded = useEffectEvent((record: T) => {
    const loadedDraft = draftOf(record);
    setDraft(loadedDraft);
    setInitialPayload(payloadOf(loadedDraft));
  });

  /**
   * Creates the record, or sends the fields the user changed (so what others
   * changed meanwhile in other fields stays); answers the record's id. With
   * nothing changed there is nothing to send.
   */
  const save = async (edited: D): Promise<number> => {
    if (id === null) return (await api.create<T>(apiPath, payloadOf(edited))).id;
    const changes = changedFields(initialPayload, payloadOf(edited));
    if (Object.keys(changes).length > 0) await api.update<T>(`${apiPath}/${id}`, changes);
    return id;
  };

  const { saving, errors, setErrors, run } = useFormSubmit({ labels, fieldOf, failure: `The ${noun} could not be saved.` }, async (edited: D) => {
    navigate(`${pagePath}/${await save(edited)}`);
  });

  useEffect(() => {
    if (id === null) return;
    api.get<T>(`${apiPath}/${id}`).then(loaded, () => setErrors({ _: `The ${noun} could not be loaded.` }));
  }, [apiPath, noun, id, setErrors]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft) void run(draft);
  };

  return { draft, setDraft, errors, saving, submit };
}
