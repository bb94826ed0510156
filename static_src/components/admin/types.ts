/** Shapes of /api/admin (spec section 3 spellings) used by the admin islands. */
export interface RoleOption {
  Roles_id: number;
  Roles: string;
}

export interface ModuleOption {
  Module_id: number;
  Module_name: string;
  Path: string;
}

export interface BarangayOption {
  Barangay_id: number;
  Barangay_Name: string;
}

export interface AdminAccount {
  Account_id: number;
  Username: string;
  FirstName: string;
  LastName: string;
  Email: string | null;
  Barangay_id: number | null;
  Barangay_Name?: string | null;
  Roles: number;
  IsActive: number;
  Access: number[];
}

export interface AuditItem {
  id: number;
  summary: string;
  at: string;
}

export interface AdminProps {
  roles: RoleOption[];
  modules: ModuleOption[];
  barangays: BarangayOption[];
  roleDefaults: Record<string, number[]>;
}
