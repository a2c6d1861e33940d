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
