export const NOTE_RESOURCE_TYPES = ['lead', 'contact', 'deal'] as const;
export const NOTE_TYPES = ['regular', 'restricted'] as const;

export interface Note {
  id: number;
  creator_id: number;
  resource_type: (typeof NOTE_RESOURCE_TYPES)[number];
  resource_id: number;
  content: string;
  is_important: boolean;
  tags: string[];
  /** `restricted`: only the creator can see the note, anywhere. */
  type: (typeof NOTE_TYPES)[number];
  created_at: string;
  updated_at: string;
}
