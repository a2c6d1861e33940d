import ICAL from 'ical.js';
import type { Task } from '../../../shared/resources/task.js';

export interface CalendarOptions {
  /** Host name in each event's UID (`task-<id>@<host>`): the same task keeps the same UID in every export and feed. */
  host: string;
  /** The calendar's name as apps show it (X-WR-CALNAME). */
  name: string;
}

const SUMMARY_LENGTH = 120;
/** Completed tasks stay in the calendar, marked: their title starts with this and they carry the category below. */
export const DONE_MARK = '✓ ';
export const DONE_CATEGORY = 'Completed';
export const TASK_CATEGORY = 'Outpost task';

/**
 * Tasks with a due date as an iCalendar (RFC 5545) calendar: one VEVENT per
 * task, starting at its due date-time with no end (an instant, as RFC 5545
 * allows), free time (TRANSP:TRANSPARENT). VEVENT rather than VTODO because
 * Google Calendar and Outlook show only events from a subscribed calendar,
 * and Apple Calendar too lists to-dos apart from the days. `remind_at` is a
 * VALARM at that moment; completed tasks are marked (DONE_MARK in the title,
 * the Completed category) and have no alarm.
 */
export function tasksToCalendar(tasks: Task[], options: CalendarOptions): string {
  const calendar = new ICAL.Component('vcalendar');
  calendar.addPropertyWithValue('version', '2.0');
  calendar.addPropertyWithValue('prodid', '-//Outpost//Outpost CRM//EN');
  calendar.addPropertyWithValue('calscale', 'GREGORIAN');
  calendar.addPropertyWithValue('method', 'PUBLISH');
  calendar.addPropertyWithValue('x-wr-calname', options.name);
  // How often subscribers should fetch again (RFC 7986, and the older X-PUBLISHED-TTL Outlook reads).
  const refresh = new ICAL.Property('refresh-interval');
  refresh.resetType('duration');
  refresh.setValue(ICAL.Duration.fromString('PT15M'));
  calendar.addProperty(refresh);
  calendar.addPropertyWithValue('x-published-ttl', 'PT15M');
  for (const task of tasks) if (task.due_date) calendar.addSubcomponent(taskEvent(task, options.host));
  return calendar.toString() + '\r\n';
}

function taskEvent(task: Task, host: string): InstanceType<typeof ICAL.Component> {
  const event = new ICAL.Component('vevent');
  const title = firstLine(task.content);
  event.addPropertyWithValue('uid', `task-${task.id}@${host}`);
  event.addPropertyWithValue('dtstamp', utc(task.updated_at));
  event.addPropertyWithValue('created', utc(task.created_at));
  event.addPropertyWithValue('last-modified', utc(task.updated_at));
  event.addPropertyWithValue('dtstart', utc(task.due_date!));
  event.addPropertyWithValue('summary', task.completed ? `${DONE_MARK}${title}` : title);
  if (task.content !== title) event.addPropertyWithValue('description', task.content);
  event.addPropertyWithValue('transp', 'TRANSPARENT');
  event.addPropertyWithValue('status', 'CONFIRMED');
  const categories = new ICAL.Property('categories');
  categories.setValues(task.completed ? [TASK_CATEGORY, DONE_CATEGORY] : [TASK_CATEGORY]);
  event.addProperty(categories);
  if (task.remind_at && !task.completed) event.addSubcomponent(reminder(task.remind_at, title));
  return event;
}

function reminder(at: string, title: string): InstanceType<typeof ICAL.Component> {
  const alarm = new ICAL.Component('valarm');
  alarm.addPropertyWithValue('action', 'DISPLAY');
  alarm.addPropertyWithValue('description', title);
  const trigger = new ICAL.Property('trigger');
  trigger.resetType('date-time');
  trigger.setValue(utc(at));
  alarm.addProperty(trigger);
  return alarm;
}

function utc(iso: string): InstanceType<typeof ICAL.Time> {
  return ICAL.Time.fromJSDate(new Date(iso), true);
}

function firstLine(content: string): string {
  const line = content.trim().split(/\r?\n/, 1)[0].trim();
  return line.length > SUMMARY_LENGTH ? `${line.slice(0, SUMMARY_LENGTH - 1)}…` : line;
}
