import { ApiFailure } from './client.js';
import { SupportFailure } from './supportClient.js';
import { humanized } from '../shell/words.js';

/** A form's errors by field name; `_` holds what no field of the form shows (a refusal, a field the form lacks). */
export type FormErrors = Record<string, string>;

/** The form's labels by API field name (`last_name` → "Last name"): the fields it shows, in its words. */
export type FieldLabels = Record<string, string>;

const API_NAME = /(?<![\w.])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w])/g;

/** `contact_id` → "contact", `estimated_close_date` → "estimated close date": an API name as a word in a sentence. */
const wordsOf = (name: string) => humanized(name.replace(/_id$/, '')).toLowerCase();

/**
 * An API message in the words of the form it is shown in: each field name
 * becomes the label people see there ("last_name is required" → "Last name
 * is required"), other API names plain words; a sentence starts with a
 * capital.
 */
export function inWords(message: string, labels: FieldLabels = {}): string {
  const named = Object.keys(labels).sort((a, b) => b.length - a.length).reduce((text, name) => {
    const label = labels[name].replace(/ \*$/, '');
    return text.replace(new RegExp(`(?<![\\w.])${name}(?![\\w])`, 'g'), (_, at: number) => (at === 0 ? label : label.toLowerCase()));
  }, message);
  const worded = named.replace(API_NAME, (name) => wordsOf(name));
  return worded.charAt(0).toUpperCase() + worded.slice(1);
}

/**
 * Splits a refusal between the form's fields and the message below it:
 * a problem with a field the form shows goes by that field, in the form's
 * words, and only there (so "Last name can't be blank" shows once); every
 * other problem (a field the form does not show, the record as a whole)
 * goes below the form; a refusal about no field at all (403, 404) shows
 * its message there. `fieldOf` maps the API's field name to the form's.
 */
export function formErrorsOf(err: unknown, labels: FieldLabels, fallback: string, fieldOf: (name: string) => string = (name) => name): FormErrors {
  if (!(err instanceof ApiFailure) && !(err instanceof SupportFailure)) return { _: fallback };
  const errors: FormErrors = {};
  const others: string[] = [];
  for (const [name, message] of Object.entries(err.fieldErrors)) {
    const field = fieldOf(name);
    const text = inWords(message, labels);
    if (field in labels) errors[field] = errors[field] ? `${errors[field]} ${text}` : text;
    else others.push(text);
  }
  if (others.length > 0) errors._ = others.join(' ');
  else if (Object.keys(errors).length === 0) errors._ = inWords(err.message, labels);
  return errors;
}

/** What to tell about a refused request: the API's message in words (no `outbound_sequences`), or `fallback` for any other failure. */
export function refusalText(err: unknown, fallback: string): string {
  return err instanceof ApiFailure || err instanceof SupportFailure ? inWords(err.message) : fallback;
}
