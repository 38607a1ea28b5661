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
  /** Preview files (`type: "file"`): where the service downloads the file and its extension (no dot). */
  downloadUrl?: string;
  ext?: string;
}

/** The outcome of a permission check: who is calling and what the integrator says about the file. */
export interface FileAccess {
  user: IntegratorUser;
  file: FileMetadata;
}

/** A collaborator of a file: a user plus whether they manage it (`/files/{fileId}/collaborators`). */
export interface Collaborator extends IntegratorUser {
  isManager: boolean;
}

export interface Team {
  id: string;
  name: string;
  memberCount: number;
}

export interface DepartmentRef {
  id: string;
  name: string;
}

export interface Department extends DepartmentRef {
  allMemberCount: number;
}

export interface DepartmentMembers {
  total: number;
  members: IntegratorUser[];
}

/** A file list entry (spec 2.3): `fullUrl` only for third-party files (type `file`). */
export interface FileListEntry {
  id: string;
  name: string;
  type: string;
  /** the three booleans of spec 2.3, each present (a permission the integrator left out is false) */
  permissions: { readable: boolean; editable: boolean; commentable: boolean };
  creatorId?: string;
  createdAt?: string;
  updatedAt?: string;
  views?: number;
  fullUrl?: string;
}

export interface SearchPage<T> {
  count: number;
  page: number;
  pageSize: number;
  pageCount: number;
  results: T[];
}

export interface SearchResults {
  files: SearchPage<FileListEntry>;
  recentUsers: SearchPage<IntegratorUser>;
  collaborators: SearchPage<IntegratorUser>;
  teamMembers: SearchPage<IntegratorUser>;
  department: SearchPage<unknown>;
}

export interface SearchQuery {
  fileId?: string;
  keyword: string;
  page?: number;
  pageSize?: number;
  type?: string;
}

/**
 * On whose behalf a callback is made: a user's (their token is forwarded, credential type 0) or the
 * service's own (a signature we make with the app secret, credential type 3).
 */
export type CallbackCredential =
  | { kind: 'user'; token: string }
  | { kind: 'system'; fileId?: string | undefined; userId?: string | undefined };
