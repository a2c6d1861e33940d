/** A task as the reminder check needs it. */
export interface DueReminder {
  id: number;
  content: string;
  remind_at: string | null;
}

/**
 * Which due reminders are new (shared by the desktop's system notifications and the web UI's in-app ones): each (task, remind_at) pair is announced once,
 * so a task whose reminder is moved later is announced again at the new time.
 */
export class ReminderTracker {
  private readonly announced: Set<string>;

  /** `announced`: keys already shown (the web UI keeps them in sessionStorage across reloads). */
  constructor(announced: Iterable<string> = []) {
    this.announced = new Set(announced);
  }

  keys(): string[] {
    return [...this.announced];
  }

  fresh(due: DueReminder[]): DueReminder[] {
    const fresh = due.filter((task) => !this.announced.has(`${task.id}@${task.remind_at}`));
    for (const task of fresh) this.announced.add(`${task.id}@${task.remind_at}`);
    return fresh;
  }
}
