import { describe, expect, it } from 'vitest';
import { isoSeconds } from '../../electron/engine/clock.js';

describe('isoSeconds', () => {
  it('formats whole seconds in UTC, whatever second was asked before', () => {
    expect(isoSeconds(new Date('2026-01-05T09:00:00.999Z'))).toBe('2026-01-05T09:00:00Z');
    expect(isoSeconds(new Date('2026-01-05T09:00:00.001Z'))).toBe('2026-01-05T09:00:00Z');
    expect(isoSeconds(new Date('2026-01-05T09:00:01.000Z'))).toBe('2026-01-05T09:00:01Z');
    // Back in time, as a test's clock may go.
    expect(isoSeconds(new Date('2025-12-31T23:59:59.500Z'))).toBe('2025-12-31T23:59:59Z');
    expect(isoSeconds(new Date('2026-01-05T09:00:00.500Z'))).toBe('2026-01-05T09:00:00Z');
    expect(isoSeconds(new Date(Date.UTC(1969, 11, 31, 23, 59, 59, 300)))).toBe('1969-12-31T23:59:59Z');
  });

  it('throws for an invalid date, as toISOString does', () => {
    expect(() => isoSeconds(new Date('not a date'))).toThrow(RangeError);
  });
});
