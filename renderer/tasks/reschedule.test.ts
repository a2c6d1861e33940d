import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rescheduledDue, rescheduledTimes, targetWords } from './reschedule.js';

// A zone with daylight saving (British Summer Time ends on 25 October 2026 at 02:00),
// so keeping the local time of day across the change is tested, not assumed.
const zoneBefore = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Europe/London';
});
afterAll(() => {
  process.env.TZ = zoneBefore;
});

/** A local wall-clock moment in the test's zone. */
const local = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min);

describe('rescheduledDue', () => {
  const now = local(2026, 10, 24, 15, 0);

  it('moves to tomorrow at the task’s own time of day, counted from today, not from the old due date', () => {
    const due = local(2026, 10, 20, 10, 30).toISOString();
    expect(rescheduledDue(due, { kind: 'tomorrow' }, now)).toEqual(local(2026, 10, 25, 10, 30));
  });

  it('keeps the local wall-clock time across the end of summer time', () => {
    // 10:30 in summer time is 09:30Z; the day after the change 10:30 is 10:30Z.
    const due = '2026-10-20T09:30:00Z';
    expect(rescheduledDue(due, { kind: 'tomorrow' }, now)?.toISOString()).toBe('2026-10-25T10:30:00.000Z');
  });

  it('gives a task without a due date 09:00 local', () => {
    expect(rescheduledDue(null, { kind: 'tomorrow' }, now)).toEqual(local(2026, 10, 25, 9, 0));
    expect(rescheduledDue(null, { kind: 'next-week' }, now)).toEqual(local(2026, 10, 31, 9, 0));
  });

  it('moves to the same time seven days from today for next week', () => {
    const due = local(2026, 11, 2, 17, 45).toISOString();
    expect(rescheduledDue(due, { kind: 'next-week' }, now)).toEqual(local(2026, 10, 31, 17, 45));
  });

  it('moves to a picked day at the task’s time', () => {
    const due = local(2026, 10, 20, 8, 15).toISOString();
    expect(rescheduledDue(due, { kind: 'day', day: '2027-01-19' }, now)).toEqual(local(2027, 1, 19, 8, 15));
    expect(rescheduledDue(null, { kind: 'day', day: '2027-01-19' }, now)).toEqual(local(2027, 1, 19, 9, 0));
  });

  it('crosses the end of a month and of a year', () => {
    expect(rescheduledDue(null, { kind: 'tomorrow' }, local(2026, 12, 31, 23, 50))).toEqual(local(2027, 1, 1, 9, 0));
    expect(rescheduledDue(null, { kind: 'next-week' }, local(2027, 2, 25, 8, 0))).toEqual(local(2027, 3, 4, 9, 0));
  });

  it('answers null for a picked day that is no date (an emptied date input)', () => {
    expect(rescheduledDue(null, { kind: 'day', day: '' }, now)).toBeNull();
    expect(rescheduledDue(null, { kind: 'day', day: '2027-02-30' }, now)).toBeNull();
  });
});

describe('rescheduledTimes', () => {
  const now = local(2026, 10, 24, 15, 0);

  it('sends the new due date in UTC, whole seconds', () => {
    expect(rescheduledTimes({ due_date: null, remind_at: null }, { kind: 'tomorrow' }, now)).toEqual({ due_date: '2026-10-25T09:00:00Z' });
  });

  it('moves the reminder along, keeping its lead before the due date', () => {
    const task = { due_date: '2026-10-20T09:30:00Z', remind_at: '2026-10-20T09:00:00Z' };
    expect(rescheduledTimes(task, { kind: 'tomorrow' }, now)).toEqual({ due_date: '2026-10-25T10:30:00Z', remind_at: '2026-10-25T10:00:00Z' });
  });

  it('answers null where the target is no date', () => {
    expect(rescheduledTimes({ due_date: null, remind_at: null }, { kind: 'day', day: 'soon' }, now)).toBeNull();
  });
});

describe('targetWords', () => {
  it('says where the task went', () => {
    const now = local(2026, 10, 24, 15, 0);
    expect(targetWords({ kind: 'tomorrow' }, now)).toBe('tomorrow');
    expect(targetWords({ kind: 'next-week' }, now)).toBe('next week');
    expect(targetWords({ kind: 'day', day: '2027-01-19' }, now)).toBe(local(2027, 1, 19).toLocaleDateString(undefined, { dateStyle: 'medium' }));
  });
});
