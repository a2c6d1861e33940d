import { describe, expect, it } from 'vitest';
import { reminderWarning } from './reminderCheck.js';

const now = new Date(2026, 10, 25, 12, 0);

describe('reminderWarning', () => {
  it('says nothing of a reminder before the due date and still to come, or of none', () => {
    expect(reminderWarning('2026-11-26T17:00', '2026-11-26T09:00', now)).toBeNull();
    expect(reminderWarning('2026-11-26T17:00', '', now)).toBeNull();
    expect(reminderWarning('', '', now)).toBeNull();
  });

  it('explains a reminder at or after the due date, which the API refuses', () => {
    expect(reminderWarning('2026-11-26T09:00', '2026-11-26T10:00', now)).toBe('The reminder must be before the due date.');
    expect(reminderWarning('2026-11-26T09:00', '2026-11-26T09:00', now)).toBe('The reminder must be before the due date.');
  });

  it('asks for a due date for a reminder to come before', () => {
    expect(reminderWarning('', '2026-11-26T09:00', now)).toBe('Set a due date for the reminder to come before.');
  });

  it('says that a reminder in the past shows at once', () => {
    expect(reminderWarning('2026-11-26T09:00', '2026-11-25T11:00', now)).toBe('The reminder is in the past: it will show at once.');
  });
});
