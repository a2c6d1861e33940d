export const TASK_RESOURCE_TYPES = ['lead', 'contact', 'deal'] as const;
export type TaskResourceType = (typeof TASK_RESOURCE_TYPES)[number];

export interface Task {
  id: number;
  creator_id: number;
  owner_id: number;
  resource_type: TaskResourceType | null;
  resource_id: number | null;
  completed: boolean;
  completed_at: string | null;
  due_date: string | null;
  /** True when due_date has passed (computed by the service with its clock). */
  overdue: boolean;
  remind_at: string | null;
  content: string;
  created_at: string;
  updated_at: string;
}

/**
 * The Tasks screen's sections by due date (extension `due` of GET /v2/tasks):
 * due before now, during the rest of the user's day, after it, or never.
 */
export const TASK_DUE_SECTIONS = ['overdue', 'today', 'upcoming', 'none'] as const;
export type TaskDueSection = (typeof TASK_DUE_SECTIONS)[number];

/** GET /v2/tasks/counts (extension): open tasks per section, completed ones, and open ones whose reminder is due. */
export type TaskCounts = Record<TaskDueSection | 'completed' | 'reminders_due', number>;
