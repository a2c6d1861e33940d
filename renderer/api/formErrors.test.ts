import { beforeAll, describe, expect, it } from 'vitest';
import type { ErrorEnvelope } from '../../shared/errors.js';

// client.ts picks its transport from `window` when loaded: a bare one makes it the browser's (never used here).
(globalThis as { window?: object }).window ??= {};
const { ApiFailure } = await import('./client.js');
const { SupportFailure } = await import('./supportClient.js');
const { formErrorsOf, refusalText, withoutShown } = await import('./formErrors.js');

/** A 422 as the API sends it: each error with its resource, JSON pointer, code and message. */
function refused(resource: string, ...errors: [field: string, code: string, message: string][]) {
  const body = {
    errors: errors.map(([field, code, message]) => ({ error: { resource, field, code, message, details: message }, meta: { type: 'error', links: { more_info: '' } } })),
    meta: { type: 'errors', http_status: '422 Unprocessable Entity', logref: 'x', links: {} },
  } as unknown as ErrorEnvelope;
  return new ApiFailure(422, body);
}

beforeAll(() => {
  // The example amount is written in the reader's locale; these tests read as en-US.
  expect(new Intl.NumberFormat().resolvedOptions().locale).toMatch(/^en/);
});

describe('formErrorsOf: API refusals in a rep’s words', () => {
  it('says a busy or restarting team server is nothing the rep did, under the form (a 503 names no field)', () => {
    const message = 'The database is not available right now; please try again shortly.';
    const err = refused('request', ['', 'temporarily_unavailable', message]);
    const sentence = 'The team’s server can’t reach its database right now. Try again in a moment.';
    expect(formErrorsOf(err, { last_name: 'Last name' }, 'failed')).toEqual({ _: sentence });
    expect(refusalText(err, 'failed')).toBe(sentence);
  });

  it('asks for the note, not for its "content"', () => {
    const err = refused('note', ['/content', 'blank', "content can't be blank."]);
    expect(formErrorsOf(err, { content: 'Note' }, 'failed')).toEqual({ content: 'Write the note before saving.' });
  });

  it('says the reminder must come before the due date', () => {
    const err = refused('task', ['/remind_at', 'incorrect_value', 'remind_at must be earlier than due_date.']);
    expect(formErrorsOf(err, { content: 'Task', due_date: 'Due', remind_at: 'Reminder' }, 'failed'))
      .toEqual({ remind_at: 'The reminder must be before the due date.' });
  });

  it('asks for an amount as a number with an example in the rep’s own way of writing one', () => {
    const err = refused('deal', ['/value', 'invalid_type', 'value must be a decimal number, as a string ("1000.25") or a number.']);
    expect(formErrorsOf(err, { value: 'Value' }, 'failed')).toEqual({ value: 'Enter the value as a number, such as 12,500.50.' });
  });

  it('names a blank field by its label, whatever the API calls it', () => {
    const err = refused('contact', ['/last_name', 'blank', "last_name can't be blank for individuals."], ['/email', 'incorrect_value', 'email is too long (maximum is 255 characters).']);
    expect(formErrorsOf(err, { last_name: 'Last name *', email: 'Email address' }, 'failed')).toEqual({
      last_name: 'Enter the person’s last name.',
      email: 'The email address is too long: at most 255 characters.',
    });
    const lead = refused('lead', ['/last_name', 'missing', 'A lead needs a last_name or an organization_name.']);
    expect(formErrorsOf(lead, { last_name: 'Last name' }, 'failed')).toEqual({ last_name: 'Enter a last name or an organization name.' });
    const product = refused('product', ['/name', 'missing', 'name is required.']);
    expect(formErrorsOf(product, { name: 'Name *' }, 'failed')).toEqual({ name: 'Enter the name.' });
  });

  it('words a missing record, an inactive owner, a date and a choice', () => {
    const err = refused('deal',
      ['/stage_id', 'incorrect_value', 'There is no stage with id 99.'],
      ['/owner_id', 'incorrect_value', 'owner_id 7 is not an active user.'],
      ['/estimated_close_date', 'incorrect_value', 'estimated_close_date must be a date written YYYY-MM-DD.'],
      ['/status', 'incorrect_value', 'status must be one of: open, won.']);
    expect(formErrorsOf(err, { stage_id: 'Stage', owner_id: 'Owner', estimated_close_date: 'Expected close date', status: 'Status' }, 'failed')).toEqual({
      stage_id: 'The stage chosen no longer exists: choose another.',
      owner_id: 'Choose an active user as the owner.',
      estimated_close_date: 'Enter the expected close date as a date.',
      status: 'Choose the status from the list.',
    });
  });

  it('keeps the reason of a value refused for a reason of its own, in the form’s words', () => {
    const err = refused('user', ['/password', 'incorrect_value', 'password must be at least 8 characters.']);
    expect(formErrorsOf(err, { password: 'Password' }, 'failed')).toEqual({ password: 'Password must be at least 8 characters.' });
  });

  it('names a nested field by its label and the part refused', () => {
    const err = refused('contact', ['/address/city', 'incorrect_value', 'city is too long (maximum is 100 characters).']);
    expect(formErrorsOf(err, { address: 'Billing address' }, 'failed')).toEqual({ address: 'The billing address city is too long: at most 100 characters.' });
  });

  it('puts what no field of the form shows below it, in words, once', () => {
    const err = refused('task', ['/resource_id', 'incorrect_value', 'There is no contact with id 5.'], ['/resource_type', 'incorrect_value', 'There is no contact with id 5.']);
    expect(formErrorsOf(err, { content: 'Task' }, 'failed')).toEqual({ _: 'The contact chosen no longer exists: choose another.' });
  });

  it('shows a refusal about no field as the API says it, and any other failure as the form’s fallback', () => {
    const forbidden = refused('request', ['', 'forbidden', 'Only admins change the pipelines.']);
    expect(formErrorsOf(forbidden, {}, 'failed')).toEqual({ _: 'Only admins change the pipelines.' });
    expect(formErrorsOf(new Error('socket hang up'), {}, 'The deal could not be saved.')).toEqual({ _: 'The deal could not be saved.' });
  });

  it('words the custom-objects interface’s refusals by their codes too', () => {
    const err = new SupportFailure(422, {
      error: 'RecordInvalid', description: 'Record validation errors',
      details: {
        name: [{ error: 'BlankValue', description: 'Name: cannot be blank' }],
        'custom_object_fields.price': [{ error: 'InvalidValue', description: 'price must be a decimal number such as 12.50 (at most 40 characters, no exponent).' }],
      },
    });
    const fieldOf = (name: string) => name.replace('custom_object_fields.', 'field:');
    expect(formErrorsOf(err, { name: 'Name', 'field:price': 'Price' }, 'failed', fieldOf)).toEqual({
      name: 'Enter the name.',
      'field:price': 'Enter the price as a number, such as 12,500.50.',
    });
  });
});

describe('the custom fields forms’ refusals', () => {
  const labels = { name: 'Field name', type: 'Type', choices: 'Choices (one a line)' };

  it('says what is wrong with a field name in words', () => {
    expect(formErrorsOf(refused('custom_field', ['/name', 'blank', 'name cannot be blank.']), labels, 'failed')).toEqual({ name: 'Enter the field name.' });
    expect(formErrorsOf(refused('custom_field', ['/name', 'incorrect_value', 'name must not contain line breaks, tabs or other control characters.']), labels, 'failed'))
      .toEqual({ name: 'The field name must be one line of text, without tabs.' });
    expect(formErrorsOf(refused('custom_field', ['/name', 'incorrect_value', 'name must be at most 255 characters.']), labels, 'failed')).toEqual({ name: 'The field name is too long: at most 255 characters.' });
    expect(formErrorsOf(refused('custom_field', ['/name', 'already_exists', "A lead custom field named Rep's note already exists."]), labels, 'failed')).toEqual({ name: 'The field name is already taken: choose another.' });
    expect(formErrorsOf(refused('custom_field', ['/choices', 'incorrect_value', 'choices must not repeat a choice.']), labels, 'failed')).toEqual({ choices: 'Choices must not repeat a choice.' });
  });

  it('says what is wrong with a custom object field’s key by its rule, not a pattern', () => {
    const err = new SupportFailure(422, {
      error: 'RecordInvalid', description: 'Record validation errors',
      details: { key: [{ error: 'InvalidFormat', description: 'Key: must be 1 to 64 letters, digits and underscores, and not only digits' }] },
    });
    expect(formErrorsOf(err, { key: 'Field key' }, 'failed')).toEqual({ key: 'The field key must be 1 to 64 letters, digits and underscores, and not only digits.' });
    const title = new SupportFailure(422, {
      error: 'RecordInvalid', description: 'Record validation errors',
      details: { title: [{ error: 'InvalidValue', description: 'Title: must not contain line breaks, tabs or other control characters' }] },
    });
    expect(formErrorsOf(title, { title: 'Field title *' }, 'failed')).toEqual({ title: 'The field title must be one line of text, without tabs.' });
  });
});

describe('refusalText', () => {
  it('words every refused field as a sentence, without API names', () => {
    const err = refused('note', ['/content', 'blank', "content can't be blank."]);
    expect(refusalText(err, 'failed')).toBe('Write the note before saving.');
    const visit = refused('visit', ['/rep_location_verification_status', 'incorrect_value', 'rep_location_verification_status must be one of: verified, location_unknown.']);
    expect(refusalText(visit, 'failed')).toBe('Choose the rep location verification status from the list.');
  });

  it('keeps a refusal about no field as the API words it (its API names in words), and falls back for other failures', () => {
    const err = refused('request', ['', 'forbidden', 'Changes need the outbound_sequences add-on.']);
    expect(refusalText(err, 'failed')).toBe('Changes need the outbound sequences add-on.');
    expect(refusalText(new TypeError('fetch failed'), 'The visit could not be saved.')).toBe('The visit could not be saved.');
  });
});

describe('withoutShown', () => {
  it('drops the errors a changed field showed, keeping the others and the form’s own message', () => {
    const errors = { name: 'Enter the field name.', type: 'Choose the type from the list.', _: 'The field could not be added.' };
    expect(withoutShown(errors, 'Enter the field name.')).toEqual({ type: 'Choose the type from the list.', _: 'The field could not be added.' });
    expect(withoutShown(errors, 'The field could not be added.')).toBe(errors);
    expect(withoutShown(errors, 'Something else.')).toBe(errors);
  });
});
