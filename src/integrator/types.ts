/**
 * What the integrator tells us through its callbacks (contract notes 2). The service never owns users or
 * permissions: every user-context request is decided by these answers.
 */

/** Permission booleans of a file, as the `/files/{fileId}` callback answers them. */
export type Permission = 'readable' | 'editable' | 'commentable' | 'copyable' | 'exportable' | 'manageable';

export interface IntegratorUser {
  id: string;
  name: string;
  avatar?: string;
  email?: string;
  teamGuid?: string;
}

export interface FileMetadata {
  id: string;
  name: string;
  type: string;
  creatorId?: string;
  createdAt?: string;
  updatedAt?: string;
  views?: number;
  teamGuid?: string;
  permissions: Partial<Record<Permission, boolean>> & Record<string, boolean | undefined>;
  /** The file has advanced permissions enabled: the table API refuses every call (spec 5 rule 3). */
  advancedPermissions?: boolean;
}

/** The outcome of a permission check: who is calling and what the integrator says about the file. */
export interface FileAccess {
  user: IntegratorUser;
  file: FileMetadata;
}
