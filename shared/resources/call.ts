export const CALL_RESOURCE_TYPES = ['lead', 'contact'] as const;

export interface Call {
  id: number;
  /** Who recorded it (an Outpost extension): they or an admin may change or delete it. */
  creator_id: number | null;
  /** Who made or took the call; defaults to the creating user. */
  user_id: number;
  summary: string | null;
  recording_url: string | null;
  outcome_id: number | null;
  /** Seconds. */
  duration: number | null;
  phone_number: string;
  incoming: boolean;
  missed: boolean;
  resource_type: (typeof CALL_RESOURCE_TYPES)[number] | null;
  resource_id: number | null;
  associated_deal_ids: number[];
  made_at: string;
  external_id: string | null;
  updated_at: string;
}

export interface CallOutcome {
  id: number;
  creator_id: number | null;
  name: string;
  created_at: string;
  updated_at: string;
}
