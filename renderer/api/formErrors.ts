import { ApiFailure } from './client.js';
import { SupportFailure } from './supportClient.js';
import { humanized } from '../shell/words.js';
import { isErrorEnvelope } from '../../shared/errors.js';
import { repSentence, requestSentence, type FieldProblem } from './refusalWords.js';

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
    // "Choices (one a line) *" reads as "Choices" in a sentence.
    const label = labels[name].replace(/ \*$/, '').replace(/ \(.*\)$/, '');
    return text.replace(new RegExp(`(?<![\\w.])${name}(?![\\w])`, 'g'), (_, at: number) => (at === 0 ? label : label.toLowerCase()));
  }, message);
  const worded = named.replace(API_NAME, (name) => wordsOf(name));
  return worded.charAt(0).toUpperCase() + worded.slice(1);
}

/** The form's name for a field the API names (`custom_object_fields.color` → `field:color`), given its pointer's segments too. */
export type FieldOf = (name: string, path: string[]) => string;

/** One refused field of a failure, with the form's name for it (`fieldOf`) and the sub-field a pointer names (`/address/city` → `city`). */
interface Refused extends FieldProblem {
  sub: string | null;
  /** The pointer's segments (`/custom_fields/Size` → `custom_fields`, `Size`). */
  path: string[];
}

/** The refused fields of an API or custom-objects failure, each with its code; none for any other failure. */
export function problemsOf(err: unknown): Refused[] {
  if (err instanceof ApiFailure) {
    return (isErrorEnvelope(err.body) ? err.body.errors : []).map(({ error }) => {
      const path = error.field.replace(/^\/(data\/)?/, '').split('/');
      const sub = path.slice(1).reverse().find((segment) => segment !== '' && !/^\d+$/.test(segment)) ?? null;
      return { resource: error.resource, field: path[0] || '_', code: error.code, message: error.message, sub, path };
    });
  }
  if (err instanceof SupportFailure) {
    return Object.entries(err.body?.details ?? {}).flatMap(([field, details]) =>
      details.map((d) => ({ resource: 'custom_object', field, code: d.error, message: d.description, sub: null, path: [field] })));
  }
  return [];
}

/** A refused field in a rep's words: the table's sentence (refusalWords.ts), naming the field by the form's label; else the API's message with its names in words. */
function sentenceOf(problem: Refused, label: string | undefined, labels: FieldLabels): string {
  if (problem.field === '_') return requestSentence(problem.code) ?? inWords(problem.message, labels);
  const named = label && problem.sub ? `${label.replace(/ \*$/, '')} ${humanized(problem.sub).toLowerCase()}` : label;
  return repSentence(problem, named) ?? inWords(problem.message, labels);
}

/**
 * Splits a refusal between the form's fields and the message below it:
 * a problem with a field the form shows goes by that field, in a rep's
 * words naming it by its label, and only there (so "Enter the last name."
 * shows once); every other problem (a field the form does not show, the
 * record as a whole) goes below the form; a refusal about no field at all
 * (403, 404) shows its message there. `fieldOf` maps the API's field name
 * to the form's.
 */
export function formErrorsOf(err: unknown, labels: FieldLabels, fallback: string, fieldOf: FieldOf = (name) => name): FormErrors {
  if (!(err instanceof ApiFailure) && !(err instanceof SupportFailure)) return { _: fallback };
  const errors: FormErrors = {};
  const others: string[] = [];
  for (const problem of problemsOf(err)) {
    const field = fieldOf(problem.field, problem.path);
    // A field the form shows by a part of its own (a custom field) is named by that part's label alone.
    const text = sentenceOf(field === problem.field ? problem : { ...problem, sub: null }, labels[field], labels);
    if (field in labels) errors[field] = joined(errors[field], text);
    else if (!others.includes(text)) others.push(text);
  }
  if (others.length > 0) errors._ = others.join(' ');
  else if (Object.keys(errors).length === 0) errors._ = inWords(err.message, labels);
  return errors;
}

/** Sentences about one field, each once. */
const joined = (before: string | undefined, text: string) => (!before ? text : before.includes(text) ? before : `${before} ${text}`);

/** What to tell about a refused request in a rep's words (each refused field as a sentence, else the API's message without its names), or `fallback` for any other failure. */
export function refusalText(err: unknown, fallback: string): string {
  if (!(err instanceof ApiFailure) && !(err instanceof SupportFailure)) return fallback;
  const sentences = [...new Set(problemsOf(err).map((p) => sentenceOf(p, undefined, {})))];
  return sentences.length > 0 ? sentences.join(' ') : inWords(err.message);
}

/** The errors without a field's that showed `shown`: the rep changed that field, so what was refused is no longer there (`_`, the form's own message, stays). */
export function withoutShown(errors: FormErrors, shown: string): FormErrors {
  const kept = Object.entries(errors).filter(([field, text]) => field === '_' || text !== shown);
  return kept.length === Object.keys(errors).length ? errors : Object.fromEntries(kept);
}

/**
 * The error shown for a control the rep changed, if any: the message of its
 * field (a FormField's, or a `.field-error` right after the control's label
 * or group), looked for from the control outwards, never past `root` (the
 * form, whose other fields' messages are not this one's).
 */
export function shownErrorOf(control: EventTarget | null, root: ParentNode): string | null {
  for (let node = control instanceof Element ? control : null; node && node !== root; node = node.parentElement) {
    const own = [...node.children].find((child) => child.classList.contains('field-error'));
    const next = node.nextElementSibling?.classList.contains('field-error') ? node.nextElementSibling : null;
    const shown = (own ?? next)?.textContent;
    if (shown) return shown;
  }
  return null;
}
