import { describe, expect, it } from 'vitest';
import { SNOOZE_CHOICES, snoozedTimes } from './snooze.js';

describe('snoozing a reminder', () => {
  it('moves only the reminder while the task is due later', () => {
    expect(snoozedTimes({ due_date: '2026-03-02T15:00:00Z', remind_at: '2026-03-02T09:00:00Z' }, new Date('2026-03-02T10:10:30.500Z')))
      .toEqual({ remind_at: '2026-03-02T10:10:30Z' });
  });

  it('moves the due date on, keeping the reminder\'s lead, when the snooze reaches it', () => {
    // An overdue task whose reminder came 30 minutes before its due time.
    expect(snoozedTimes({ due_date: '2026-03-01T09:30:00Z', remind_at: '2026-03-01T09:00:00Z' }, new Date('2026-03-02T11:00:00Z')))
      .toEqual({ remind_at: '2026-03-02T11:00:00Z', due_date: '2026-03-02T11:30:00Z' });
    expect(snoozedTimes({ due_date: '2026-03-02T11:00:00Z', remind_at: null }, new Date('2026-03-02T11:00:00Z')))
      .toEqual({ remind_at: '2026-03-02T11:00:00Z', due_date: '2026-03-02T12:00:00Z' });
  });

  it('offers 10 minutes, an hour and tomorrow morning', () => {
    const now = new Date(2026, 2, 2, 16, 45);
    expect(SNOOZE_CHOICES.map((c) => c.until(now).getTime() - now.getTime())).toEqual([600_000, 3_600_000, expect.any(Number)]);
    const tomorrow = SNOOZE_CHOICES[2].until(now);
    expect([tomorrow.getDate(), tomorrow.getHours(), tomorrow.getMinutes()]).toEqual([3, 9, 0]);
  });
});
