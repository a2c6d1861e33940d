/** "current" → "Current": an API's lowercase word as the first word of a label (sentence case). */
export const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** An API name as words for people: `in_progress` → "In progress", `last_name` → "Last name". */
export const humanized = (name: string) => capitalized(name.replace(/_/g, ' ').trim());
