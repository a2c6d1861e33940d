import { useNamedOptions } from '../leads/useNamedOptions.js';

/** The account's email templates for pickers, and a lookup of a template's name by id. */
export function useTemplateNames() {
  const templates = useNamedOptions('/v2/email_templates', { sort_by: 'name' });
  const templateName = (id: number) => templates.find((t) => t.id === id)?.name;
  return { templates, templateName };
}
