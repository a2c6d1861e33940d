import { describe, expect, it } from 'vitest';
import { pickedValue } from './dates.js';

describe('pickedValue', () => {
  const morning = new Date(2026, 10, 25, 8, 30);
  const evening = new Date(2026, 10, 25, 18, 10);

  it('gives calendar dates for a date field, across a month’s end', () => {
    expect(pickedValue('date', 0, '', morning)).toBe('2026-11-25');
    expect(pickedValue('date', 1, '', morning)).toBe('2026-11-26');
    expect(pickedValue('date', 7, '', morning)).toBe('2026-12-02');
  });

  it('keeps the time chosen, else the start of the working day', () => {
    expect(pickedValue('datetime-local', 1, '2026-12-01T14:45', morning)).toBe('2026-11-26T14:45');
    expect(pickedValue('datetime-local', 7, '', morning)).toBe('2026-12-02T09:00');
    expect(pickedValue('datetime-local', 0, '', morning)).toBe('2026-11-25T09:00');
  });

  it('never makes Today a time already gone', () => {
    expect(pickedValue('datetime-local', 0, '', evening)).toBe('2026-11-25T19:00');
    expect(pickedValue('datetime-local', 0, '', new Date(2026, 10, 25, 23, 20))).toBe('2026-11-25T23:59');
  });
});
