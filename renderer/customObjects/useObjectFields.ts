import { useCallback, useEffect, useState } from 'react';
import { objectPath, supportApi } from '../api/supportClient.js';
import type { CustomObjectField } from './types.js';
import { refusalText } from '../api/formErrors.js';

export interface ObjectFields {
  /** Every field definition, the standard ones first; null until the first answer. */
  fields: CustomObjectField[] | null;
  /** Why they could not be loaded (the object does not exist, say), or null. */
  error: string | null;
  /** Loads them again, after a change. */
  reload(): void;
}

/** The field definitions of one custom object. */
export function useObjectFields(key: string): ObjectFields {
  const [fields, setFields] = useState<CustomObjectField[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Bumped after every change, to load the definitions again.
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    supportApi.get<{ custom_object_fields: CustomObjectField[] }>(objectPath(key, 'fields')).then(
      (answer) => {
        if (!live) return;
        setFields(answer.custom_object_fields);
        setError(null);
      },
      (err) => live && setError(refusalText(err, 'The fields could not be loaded.')),
    );
    return () => {
      live = false;
    };
  }, [key, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { fields, error, reload };
}
