import { describe, expect, it } from 'vitest';
import { callKindText, durationSeconds, durationText } from './activityText.js';

describe('durationText', () => {
  it('says a call length in hours, minutes and seconds, leaving out what is zero', () => {
    expect(durationText(270)).toBe('4 min 30 s');
    expect(durationText(45)).toBe('45 s');
    expect(durationText(0)).toBe('0 s');
    expect(durationText(720)).toBe('12 min');
    expect(durationText(3900)).toBe('1 h 5 min');
    expect(durationText(7200)).toBe('2 h');
    expect(durationText(89.6)).toBe('1 min 30 s');
  });

  it('has nothing to say of an unknown length', () => {
    expect(durationText(null)).toBeNull();
    expect(durationText(-5)).toBeNull();
  });
});

describe('callKindText', () => {
  it('tells incoming, outgoing and missed calls apart', () => {
    expect(callKindText({ incoming: true, missed: false })).toBe('Incoming call');
    expect(callKindText({ incoming: false, missed: false })).toBe('Outgoing call');
    expect(callKindText({ incoming: true, missed: true })).toBe('Missed call');
    expect(callKindText({ incoming: false, missed: true })).toBe('Unanswered call');
  });
});

describe('durationSeconds', () => {
  it('reads a call length as reps type it, whole minutes by default', () => {
    expect(durationSeconds('4')).toBe(240);
    expect(durationSeconds('4:30')).toBe(270);
    expect(durationSeconds(' 4 min 30 s ')).toBe(270);
    expect(durationSeconds('90 s')).toBe(90);
    expect(durationSeconds('1 h 5 min')).toBe(3900);
    expect(durationSeconds('')).toBeNull();
  });

  it('reads nothing from text that is no length', () => {
    for (const text of ['soon', '4:75', '-3', '4.5.1', 'min']) expect(durationSeconds(text)).toBeUndefined();
  });

  it('gives back what durationText wrote', () => {
    for (const seconds of [45, 270, 720, 3900]) expect(durationSeconds(durationText(seconds)!)).toBe(seconds);
  });
});
