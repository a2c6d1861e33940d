import { useEffect, useState } from 'react';
import type { CustomFieldDefinition } from '../../shared/resources/customField.js';
import { api } from '../api/client.js';

/** The account's contact custom fields, for forms and detail pages. */
export function useCustomFieldDefinitions(): CustomFieldDefinition[] {
  const [definitions, setDefinitions] = useState<CustomFieldDefinition[]>([]);
  useEffect(() => {
    let live = true;
    api.list<CustomFieldDefinition>('/v2/contact/custom_fields')
      .then((page) => live && setDefinitions(page.items.map((i) => i.data)))
      .catch(() => live && setDefinitions([]));
    return () => {
      live = false;
    };
  }, []);
  return definitions;
}
