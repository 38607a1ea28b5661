import { Errors, type ErrorSpec } from '../errors.js';
import { isFileType } from '../model/file-types.js';
import type {
  Collaborator,
  Department,
  DepartmentMembers,
  DepartmentRef,
  FileListEntry,
  FileMetadata,
  IntegratorUser,
  SearchPage,
  SearchResults,
  Team,
} from './types.js';

/**
 * Parsers of the integrator's callback answers (contract notes 2). The integrator is outside our control:
 * every answer is checked before use, and a malformed one is reported with the code that names what was
 * wrong (10012 file, 10013 file type, 10014 user) instead of leaking into the service as bad data.
 */
export class MalformedAnswer extends Error {
  constructor(
    readonly spec: ErrorSpec,
    message: string,
  ) {
    super(message);
    this.name = 'MalformedAnswer';
  }
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Ids arrive as strings or, from some integrators, as integers; both become strings. */
function id(value: unknown): string | undefined {
  if (typeof value === 'string' && value.length > 0 && value.length <= 256) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

function optionalString(record: Json, key: string, spec: ErrorSpec, what: string): string | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new MalformedAnswer(spec, `${what}: ${key} must be a string`);
  return value;
}

function fail(spec: ErrorSpec, what: string, why: string): never {
  throw new MalformedAnswer(spec, `${what}: ${why}`);
}

export function parseUser(value: unknown, what = 'user'): IntegratorUser {
  const spec = Errors.integratorMalformedUser;
  if (!isObject(value)) fail(spec, what, 'not an object');
  const userId = id(value.id);
  if (userId === undefined) fail(spec, what, 'id must be a non-empty string or an integer');
  if (typeof value.name !== 'string') fail(spec, what, 'name must be a string');
  const user: IntegratorUser = { id: userId, name: value.name };
  const avatar = optionalString(value, 'avatar', spec, what);
  const email = optionalString(value, 'email', spec, what);
  const teamGuid = id(value.teamGuid);
  if (avatar !== undefined) user.avatar = avatar;
  if (email !== undefined) user.email = email;
  if (teamGuid !== undefined) user.teamGuid = teamGuid;
  return user;
}

export function parseUsers(value: unknown, what = 'user list'): IntegratorUser[] {
  if (!Array.isArray(value)) fail(Errors.integratorMalformedUser, what, 'not an array');
  return value.map((entry, index) => parseUser(entry, `${what}[${index}]`));
}

export function parseCollaborators(value: unknown): Collaborator[] {
  if (!Array.isArray(value)) fail(Errors.integratorMalformedUser, 'collaborators', 'not an array');
  return value.map((entry, index) => {
    const user = parseUser(entry, `collaborators[${index}]`);
    return { ...user, isManager: isObject(entry) && entry.isManager === true };
  });
}

function permissions(value: unknown, spec: ErrorSpec, what: string): Record<string, boolean> {
  if (!isObject(value)) fail(spec, what, 'permissions must be an object of booleans');
  const result: Record<string, boolean> = {};
  for (const [name, flag] of Object.entries(value)) {
    if (typeof flag !== 'boolean') fail(spec, what, `permissions.${name} must be a boolean`);
    result[name] = flag;
  }
  return result;
}

/** What every file answer has: an id, a name and a known type (a collaborative kind or "file"). */
function fileIdentity(value: unknown, what: string): { value: Record<string, unknown>; id: string; name: string; type: string } {
  const spec = Errors.integratorMalformedFile;
  if (!isObject(value)) fail(spec, what, 'not an object');
  const fileId = id(value.id);
  if (fileId === undefined) fail(spec, what, 'id must be a non-empty string or an integer');
  if (typeof value.name !== 'string') fail(spec, what, 'name must be a string');
  if (typeof value.type !== 'string') fail(spec, what, 'type must be a string');
  if (!isFileType(value.type) && value.type !== 'file') {
    throw new MalformedAnswer(Errors.integratorUnknownFileType, `${what}: unknown file type ${JSON.stringify(value.type.slice(0, 40))}`);
  }
  return { value, id: fileId, name: value.name, type: value.type };
}

/**
 * File metadata of `/files/{fileId}` (collaborative file or preview file `type: "file"`). A permission the
 * integrator does not mention is false: absence never grants anything.
 */
export function parseFileMetadata(value: unknown, what = 'file'): FileMetadata {
  const spec = Errors.integratorMalformedFile;
  const { value: fields, id: fileId, name, type } = fileIdentity(value, what);
  const file: FileMetadata = { id: fileId, name, type, permissions: permissions(fields.permissions, spec, what) };
  const creatorId = id(fields.creatorId);
  if (creatorId !== undefined) file.creatorId = creatorId;
  for (const key of ['createdAt', 'updatedAt'] as const) {
    const raw = fields[key];
    if (typeof raw === 'string') file[key] = raw;
    else if (typeof raw === 'number' && Number.isFinite(raw)) file[key] = new Date(raw).toISOString();
  }
  if (typeof fields.views === 'number' && Number.isInteger(fields.views) && fields.views >= 0) file.views = fields.views;
  const teamGuid = id(fields.teamGuid);
  if (teamGuid !== undefined) file.teamGuid = teamGuid;
  if (fields.advancedPermissions !== undefined && fields.advancedPermissions !== null) {
    if (typeof fields.advancedPermissions !== 'boolean') fail(spec, what, 'advancedPermissions must be a boolean');
    file.advancedPermissions = fields.advancedPermissions;
  }
  for (const key of ['downloadUrl', 'ext'] as const) {
    const raw = fields[key];
    if (typeof raw === 'string' && raw.length > 0 && raw.length <= 4096) file[key] = raw;
  }
  return file;
}

/** ISO 8601 in UTC with a zero offset (`Z` or `+00:00`), as spec 2.3 requires of file list entries. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]00:?00)$/;

export function isIsoUtc(value: string): boolean {
  return ISO_UTC.test(value) && !Number.isNaN(Date.parse(value));
}

/** A file list entry (spec 2.3): UTC timestamps, `fullUrl` only and always for type `file`. */
export function parseFileListEntry(value: unknown, what = 'file list entry'): FileListEntry {
  const spec = Errors.integratorMalformedFile;
  const { value: fields, id: fileId, name, type } = fileIdentity(value, what);
  const flags = permissions(fields.permissions ?? {}, spec, what);
  const entry: FileListEntry = {
    id: fileId,
    name,
    type,
    permissions: { readable: flags.readable === true, editable: flags.editable === true, commentable: flags.commentable === true },
  };
  const creatorId = id(fields.creatorId);
  if (creatorId !== undefined) entry.creatorId = creatorId;
  for (const key of ['createdAt', 'updatedAt'] as const) {
    const raw = fields[key];
    if (raw === undefined || raw === null) continue;
    if (typeof raw !== 'string' || !isIsoUtc(raw)) fail(spec, what, `${key} must be an ISO 8601 UTC timestamp`);
    entry[key] = raw;
  }
  if (fields.views !== undefined && fields.views !== null) {
    if (typeof fields.views !== 'number' || !Number.isInteger(fields.views) || fields.views < 0) fail(spec, what, 'views must be a non-negative integer');
    entry.views = fields.views;
  }
  const fullUrl = fields.fullUrl;
  if (fields.type === 'file') {
    if (typeof fullUrl !== 'string' || !/^https?:\/\//.test(fullUrl)) fail(spec, what, 'a file of type "file" needs an http(s) fullUrl');
    entry.fullUrl = fullUrl;
  } else if (fullUrl !== undefined && fullUrl !== null && fullUrl !== '') {
    fail(spec, what, 'fullUrl is only allowed for type "file"');
  }
  return entry;
}

export function parseFileList(value: unknown, what = 'file list'): FileListEntry[] {
  if (!Array.isArray(value)) fail(Errors.integratorMalformedFile, what, 'not an array');
  return value.map((entry, index) => parseFileListEntry(entry, `${what}[${index}]`));
}

function count(value: unknown, spec: ErrorSpec, what: string, key: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) fail(spec, what, `${key} must be a non-negative integer`);
  return value;
}

export function parseTeam(value: unknown): Team {
  const spec = Errors.integratorMalformedUser;
  if (!isObject(value)) fail(spec, 'team', 'not an object');
  const teamId = id(value.id);
  if (teamId === undefined) fail(spec, 'team', 'id must be a non-empty string or an integer');
  if (typeof value.name !== 'string') fail(spec, 'team', 'name must be a string');
  return { id: teamId, name: value.name, memberCount: count(value.memberCount, spec, 'team', 'memberCount') };
}

export function parseWatermarks(value: unknown): string[] {
  const spec = Errors.integratorMalformedUser;
  if (!isObject(value) || !Array.isArray(value.watermarks) || !value.watermarks.every((w) => typeof w === 'string')) {
    fail(spec, 'watermark', 'expected {watermarks: [string]}');
  }
  return value.watermarks as string[];
}

function departmentRef(value: unknown, what: string): DepartmentRef {
  const spec = Errors.integratorMalformedUser;
  if (!isObject(value)) fail(spec, what, 'not an object');
  const departmentId = id(value.id);
  if (departmentId === undefined) fail(spec, what, 'id must be a non-empty string or an integer');
  if (typeof value.name !== 'string') fail(spec, what, 'name must be a string');
  return { id: departmentId, name: value.name };
}

export function parseDepartmentPaths(value: unknown): DepartmentRef[][] {
  const spec = Errors.integratorMalformedUser;
  if (!Array.isArray(value)) fail(spec, 'department paths', 'not an array');
  return value.map((pathValue, i) => {
    if (!Array.isArray(pathValue)) fail(spec, `department paths[${i}]`, 'not an array');
    return pathValue.map((entry, j) => departmentRef(entry, `department paths[${i}][${j}]`));
  });
}

export function parseDepartment(value: unknown, what = 'department'): Department {
  const ref = departmentRef(value, what);
  const allMemberCount = count((value as Json).allMemberCount, Errors.integratorMalformedUser, what, 'allMemberCount');
  return { ...ref, allMemberCount };
}

export function parseDepartments(value: unknown): Department[] {
  if (!Array.isArray(value)) fail(Errors.integratorMalformedUser, 'departments', 'not an array');
  return value.map((entry, index) => parseDepartment(entry, `departments[${index}]`));
}

export function parseDepartmentMembers(value: unknown): DepartmentMembers {
  const spec = Errors.integratorMalformedUser;
  if (!isObject(value)) fail(spec, 'department members', 'not an object');
  return { total: count(value.total, spec, 'department members', 'total'), members: parseUsers(value.members, 'department members') };
}

export function parseFullUrl(value: unknown): string {
  if (!isObject(value) || typeof value.url !== 'string' || !/^https?:\/\//.test(value.url)) {
    fail(Errors.integratorMalformedFile, 'file url', 'expected {url} with an absolute http(s) URL');
  }
  return value.url;
}

function searchPage<T>(value: unknown, what: string, entry: (v: unknown, what: string) => T): SearchPage<T> {
  const spec = Errors.integratorMalformedFile;
  if (value === undefined || value === null) return { count: 0, page: 1, pageSize: 0, pageCount: 0, results: [] };
  if (!isObject(value)) fail(spec, what, 'not an object');
  if (!Array.isArray(value.results)) fail(spec, what, 'results must be an array');
  return {
    count: count(value.count, spec, what, 'count'),
    page: count(value.page, spec, what, 'page'),
    pageSize: count(value.pageSize, spec, what, 'pageSize'),
    pageCount: count(value.pageCount, spec, what, 'pageCount'),
    results: value.results.map((r, i) => entry(r, `${what}.results[${i}]`)),
  };
}

export function parseSearchResults(value: unknown): SearchResults {
  if (!isObject(value)) fail(Errors.integratorMalformedFile, 'search', 'not an object');
  return {
    files: searchPage(value.files, 'search.files', parseFileListEntry),
    recentUsers: searchPage(value.recentUsers, 'search.recentUsers', parseUser),
    collaborators: searchPage(value.collaborators, 'search.collaborators', parseUser),
    teamMembers: searchPage(value.teamMembers, 'search.teamMembers', parseUser),
    department: searchPage(value.department, 'search.department', (v) => v),
  };
}
