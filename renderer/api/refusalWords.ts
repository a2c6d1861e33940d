/**
 * The one table of what a rep reads when the API refuses a field: a sentence
 * per error code, with per-field overrides where the generic sentence would
 * be awkward ("Enter the note." → "Write the note before saving."). The API's
 * own messages stay as they are (official clients and the docs depend on
 * them); only the renderer words them for people.
 */

/** One refused field as the renderer receives it: the record type, the field's name, the code and the API's message. */
export interface FieldProblem {
  /** `note`, `task`, `deal`… (`request` when the API names none). */
  resource: string;
  /** The top-level field's API name (`remind_at`, `address`, `value`), or a custom object field's key. */
  field: string;
  /** The API's code (`blank`, `incorrect_value`…) or the custom-objects interface's (`BlankValue`, `InvalidValue`…). */
  code: string;
  message: string;
}

/** A sentence for a problem, given the field's label as a word in a sentence ("the due date"). */
type Say = (label: string, problem: FieldProblem) => string;

/** An example amount in the rep's own way of writing numbers ("12,500.50", "12.500,50"). */
export const exampleAmount = (locale?: string) => new Intl.NumberFormat(locale, { minimumFractionDigits: 2 }).format(12500.5);

const enter: Say = (label) => `Enter ${label}.`;
const asNumber: Say = (label) => `Enter ${label} as a number, such as ${exampleAmount()}.`;

/**
 * Sentences for a field whatever its code, by `resource.field.code`,
 * `resource.field` or `field.code` (the most specific wins): where "Enter the
 * content." would not be what a rep calls it.
 */
const FIELD_SENTENCES: Record<string, string | Say> = {
  'note.content.blank': 'Write the note before saving.',
  'note.content.missing': 'Write the note before saving.',
  'task.content.blank': 'Write what the task is before saving.',
  'task.content.missing': 'Write what the task is before saving.',
  'call.phone_number.blank': 'Enter the number that was called.',
  'call.phone_number.missing': 'Enter the number that was called.',
  'task.remind_at.incorrect_value': (_, p) => (/needs a due_date/.test(p.message) ? 'Set a due date for the reminder to come before.' : 'The reminder must be before the due date.'),
  'currency.incorrect_value': 'Choose a currency, such as EUR or USD.',
  'currency.missing': 'Choose a currency.',
  'contact.name.blank': 'Enter the organization’s name.',
  'contact.last_name.blank': 'Enter the person’s last name.',
  'lead.last_name': 'Enter a last name or an organization name.',
};

/** What the API's messages say within a code, in rep words; the first that matches the message wins. */
const MESSAGE_SENTENCES: { match: RegExp; say: Say }[] = [
  { match: /must be a decimal number|must be a finite number|must be a number\./, say: asNumber },
  { match: /must not be negative/, say: (label) => `${cap(label)} cannot be below zero.` },
  { match: /must have at most (\d+) decimals/, say: (label, p) => `Enter ${label} with at most ${/(\d+) decimals/.exec(p.message)?.[1]} digits after the decimal point.` },
  { match: /must be less than 1e(\d+)/, say: (label) => `${cap(label)} is too large.` },
  { match: /is a percent and/, say: (label) => `Enter ${label} as a percentage, such as 12.5.` },
  { match: /must be an integer|must be a whole number/i, say: (label) => `Enter ${label} as a whole number.` },
  { match: /must be at least (\S+)\./, say: (label, p) => `${cap(label)} must be at least ${/at least (\S+)\./.exec(p.message)?.[1]}.` },
  { match: /must be a boolean/, say: (label) => `Tick or untick ${label}.` },
  { match: /date-time|must be a date|YYYY-MM-DD/, say: (label) => `Enter ${label} as a date.` },
  { match: /must be earlier than (\w+)/, say: (label, p) => `${cap(label)} must be before ${wordsOf(/earlier than (\w+)/.exec(p.message)?.[1] ?? '')}.` },
  { match: /must be one of|must be a list of/, say: (label) => `Choose ${label} from the list.` },
  { match: /must be (?:a string of )?at most (\d+) characters/, say: (label, p) => tooLong(label, p.message) },
  { match: /is too long|TooLong/, say: (label, p) => tooLong(label, p.message) },
  { match: /^There is no ([\w ]+) with id/, say: (_, p) => `The ${/^There is no ([\w ]+) with id/.exec(p.message)?.[1]} chosen no longer exists: choose another.` },
  { match: /is not an active user/, say: (label) => `Choose an active user as ${label}.` },
  { match: /is not a custom field/, say: (label) => `${cap(label)} is no longer a custom field: reload the form.` },
  { match: /own ancestor/, say: () => 'An organization cannot be its own parent, even through others.' },
  { match: /must point to an existing organization/, say: (label) => `Choose an organization as ${label}.` },
  { match: /applies only when customer_status or prospect_status/, say: (label) => `${cap(label)} applies only to customers or prospects: set a customer or prospect status first.` },
  { match: /must be an email address/, say: (label) => `Enter ${label} as an email address, such as name@example.com.` },
  { match: /must not contain line breaks, tabs or other control characters/, say: (label) => `${cap(label)} must be one line of text, without tabs.` },
];

/**
 * The generic sentence of each code, when neither a field nor the message has
 * one. A value refused for a reason of its own (`incorrect_value`,
 * `InvalidValue`…) has none: the API's message says why, and is shown with
 * its names in the form's words ("password must be at least 8 characters"
 * → "Password must be at least 8 characters."), which no generic sentence
 * could say better.
 */
const CODE_SENTENCES: Record<string, Say> = {
  blank: enter,
  missing: enter,
  BlankValue: enter,
  too_long: (label, p) => tooLong(label, p.message),
  TooLong: (label, p) => tooLong(label, p.message),
  already_exists: (label) => `${cap(label)} is already taken: choose another.`,
  DuplicateValue: (label) => `${cap(label)} is already taken: choose another.`,
  unknown: (label) => `${cap(label)} cannot be set here.`,
  // The custom-objects interface's "Key: must be 1 to 64 letters…": its rule, named by the form's label.
  InvalidFormat: (label, p) => `${cap(label)} ${p.message.replace(/^[^:]*:\s*/, '').replace(/\.?$/, '.')}`,
  UnknownField: (label) => `${cap(label)} cannot be set here.`,
};

/** Sentences for refusals of a whole request (no field), by code. */
const REQUEST_SENTENCES: Record<string, string> = {
  // A PostgreSQL hub whose database is restarting or busy: nothing the rep did, and it passes.
  temporarily_unavailable: 'The team’s server can’t reach its database right now. Try again in a moment.',
};

/** The sentence a rep reads for a refusal of the whole request, or null when the API's own message is best. */
export function requestSentence(code: string): string | null {
  return REQUEST_SENTENCES[code] ?? null;
}

const cap = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** `due_date` → "the due date": an API name as words in a sentence. */
export const wordsOf = (name: string) => `the ${name.replace(/_id$/, '').replace(/_/g, ' ').trim().toLowerCase()}`;

function tooLong(label: string, message: string): string {
  const max = /(?:maximum is|at most) (\d+)( items)?/.exec(message);
  if (!max) return `${cap(label)} is too long.`;
  return `${cap(label)} is too long: at most ${max[1]} ${max[2] ? 'items' : 'characters'}.`;
}

/** "Last name *" → "the last name"; "Email" → "the email". */
export function labelInSentence(label: string): string {
  const bare = label.replace(/ \*$/, '').replace(/ \(.*\)$/, '').trim();
  // Names such as "SKU" or "URL" keep their capitals; a plain label reads in lower case mid-sentence.
  const word = /^[A-Z]{2,}/.test(bare) ? bare : bare.charAt(0).toLowerCase() + bare.slice(1);
  return `the ${word}`;
}

/**
 * The sentence a rep reads for one refused field: the field's own sentence,
 * else what the API's message says in rep words, else the code's; `null`
 * when none applies (the caller then words the API's message itself).
 */
export function repSentence(problem: FieldProblem, label?: string): string | null {
  const inSentence = label ? labelInSentence(label) : wordsOf(problem.field);
  const own = FIELD_SENTENCES[`${problem.resource}.${problem.field}.${problem.code}`]
    ?? FIELD_SENTENCES[`${problem.resource}.${problem.field}`]
    ?? FIELD_SENTENCES[`${problem.field}.${problem.code}`];
  if (own !== undefined) return typeof own === 'string' ? own : own(inSentence, problem);
  const byMessage = MESSAGE_SENTENCES.find((s) => s.match.test(problem.message));
  if (byMessage) return byMessage.say(inSentence, problem);
  const byCode = CODE_SENTENCES[problem.code];
  return byCode ? byCode(inSentence, problem) : null;
}
