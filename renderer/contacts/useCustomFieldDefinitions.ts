import { useEffect, useState } from 'react';
import type { CustomFieldDefinition, CustomFieldResourceType } from '../../shared/resources/customField.js';
import { api } from '../api/client.js';

/** The account's custom fields of contacts (or of leads or deals), for forms and detail pages. */
export function useCustomFieldDefinitions(resource: CustomFieldResourceType = 'contact'): CustomFieldDefinition[] {
  const [definitions, setDefinitions] = useState<CustomFieldDefinition[]>([]);
  useEffect(() => {
    let live = true;
    api.list<CustomFieldDefinition>(`/v2/${resource}/custom_fields`)
      .then((page) => live && setDefinitions(page.items.map((i) => i.data)))
      .catch(() => live && setDefinitions([]));
    return () => {
      live = false;
    };
  }, [resource]);
  return definitions;
}
