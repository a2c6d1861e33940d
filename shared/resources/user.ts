export const USER_ROLES = ['user', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export interface User {
  id: number;
  name: string;
  email: string;
  phone_number: string | null;
  status: 'active' | 'inactive';
  invited: boolean;
  confirmed: boolean;
  /** `admin` or `user` (an agent). */
  role: UserRole;
  roles: { id: number; name: string }[];
  team_name: string | null;
  group: { id: number; name: string } | null;
  reports_to: number | null;
  timezone: string;
  identity_type: 'person' | 'integration';
  helpdesk_user_id?: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}
