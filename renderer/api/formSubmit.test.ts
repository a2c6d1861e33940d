import { describe, expect, it } from 'vitest';
import type { FormErrors } from './formErrors.js';
import { FormInputError, runSubmit } from './formSubmit.js';

/** The steps of a submit, recorded in order. */
function recorder(stays?: boolean) {
  const log: unknown[] = [];
  const steps = {
    setSaving: (saving: boolean) => log.push({ saving }),
    setErrors: (errors: FormErrors) => log.push({ errors }),
    errorsOf: (err: unknown) => ({ _: `worded: ${(err as Error).message}` }),
    showErrors: () => log.push('shown'),
    stays,
  };
  return { log, steps };
}

describe('runSubmit', () => {
  it('keeps saving on after a success, for a form that leaves', async () => {
    const { log, steps } = recorder();
    const ok = await runSubmit(steps, async () => { log.push('action'); });
    expect(ok).toBe(true);
    expect(log).toEqual([{ saving: true }, 'action']);
  });

  it('clears the errors and saving after a success, for a form that stays', async () => {
    const { log, steps } = recorder(true);
    expect(await runSubmit(steps, async () => { log.push('action'); })).toBe(true);
    expect(log).toEqual([{ saving: true }, 'action', { errors: {} }, { saving: false }]);
  });

  it('words a failure as the form does, turns saving off and shows the first error, whether or not the form stays', async () => {
    for (const stays of [false, true]) {
      const { log, steps } = recorder(stays);
      const ok = await runSubmit(steps, () => Promise.reject(new Error('last_name is required')));
      expect(ok).toBe(false);
      expect(log).toEqual([{ saving: true }, { errors: { _: 'worded: last_name is required' } }, { saving: false }, 'shown']);
    }
  });

  it('shows a refusal the form made itself by its fields, as it has them, without sending', async () => {
    const { log, steps } = recorder(true);
    const ok = await runSubmit(steps, () => Promise.reject(new FormInputError({ duration: 'Enter the length in minutes.' })));
    expect(ok).toBe(false);
    expect(log).toEqual([{ saving: true }, { errors: { duration: 'Enter the length in minutes.' } }, { saving: false }, 'shown']);
  });

  it('turns saving on before the action starts', async () => {
    const { log, steps } = recorder(true);
    await runSubmit(steps, () => {
      expect(log).toEqual([{ saving: true }]);
      return Promise.resolve();
    });
  });
});
