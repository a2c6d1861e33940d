/** The words a timeline says about calls (pure, so they are tested without the API). */

/** A call's length as people say it: "45 s", "4 min 30 s", "12 min", "1 h 5 min"; null when unknown. */
export function durationText(seconds: number | null): string | null {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return null;
  const whole = Math.round(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  if (hours > 0) return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
  if (minutes > 0) return rest > 0 ? `${minutes} min ${rest} s` : `${minutes} min`;
  return `${rest} s`;
}

/** What kind of call it was, in words: missed, incoming or outgoing. */
export function callKindText(call: { incoming: boolean; missed: boolean }): string {
  if (call.missed) return call.incoming ? 'Missed call' : 'Unanswered call';
  return call.incoming ? 'Incoming call' : 'Outgoing call';
}

/**
 * A call's length as a rep types it, in seconds: "4" (minutes), "4:30",
 * "4 min 30 s", "90 s", "1 h 5 min"; "" is no length (null), and anything
 * else is undefined (the form says so).
 */
export function durationSeconds(text: string): number | null | undefined {
  const typed = text.trim().toLowerCase();
  if (typed === '') return null;
  const clock = /^(\d+):([0-5]\d)$/.exec(typed);
  if (clock) return Number(clock[1]) * 60 + Number(clock[2]);
  if (/^\d+$/.test(typed)) return Number(typed) * 60;
  const parts = /^(?:(\d+)\s*h)?\s*(?:(\d+)\s*min)?\s*(?:(\d+)\s*s)?$/.exec(typed);
  if (!parts || !(parts[1] || parts[2] || parts[3])) return undefined;
  return Number(parts[1] ?? 0) * 3600 + Number(parts[2] ?? 0) * 60 + Number(parts[3] ?? 0);
}
