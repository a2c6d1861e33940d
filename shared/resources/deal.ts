/** What a stage means for the deals in it: still being worked (incoming, in_progress) or finished. */
export const STAGE_CATEGORIES = ['incoming', 'in_progress', 'won', 'lost', 'unqualified'] as const;
export type StageCategory = (typeof STAGE_CATEGORIES)[number];

export interface Pipeline {
  id: number;
  name: string;
  disabled: boolean;
  created_at: string;
  updated_at: string;
}

export interface Stage {
  id: number;
  name: string;
  category: StageCategory;
  /** Order within the pipeline, from 1. */
  position: number;
  /** Percent, 0–100. */
  likelihood: number;
  /** False for stages of finished deals (won, lost, unqualified) unless an admin says otherwise. */
  active: boolean;
  pipeline_id: number;
  created_at: string;
  updated_at: string;
}

export interface Deal {
  id: number;
  creator_id: number;
  owner_id: number;
  name: string;
  /** Exact decimal as text: "1000.25", "1000.5", "0" (never a float). */
  value: string;
  /** ISO 4217 code; defaults to the account's currency. */
  currency: string;
  hot: boolean;
  stage_id: number;
  /** The primary contact (an individual or an organization); null once that contact was deleted. */
  contact_id: number | null;
  organization_id: number | null;
  source_id: number | null;
  loss_reason_id: number | null;
  unqualified_reason_id: number | null;
  dropbox_email: string;
  last_stage_change_at: string | null;
  last_stage_change_by_id: number | null;
  last_activity_at: string | null;
  /** YYYY-MM-DD. */
  estimated_close_date: string | null;
  customized_win_likelihood: number | null;
  /** YYYY-MM-DD: the day the deal was started. */
  added_on: string;
  tags: string[];
  custom_fields: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface AssociatedContact {
  contact_id: number;
  role: string;
  created_at: string;
  updated_at: string;
}

/** The role an associated contact gets when none is given. */
export const DEFAULT_ASSOCIATED_CONTACT_ROLE = 'involved';
