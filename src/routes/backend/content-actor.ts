import type { ContentActor } from '../../domain/content/collaboration-context.js';
import type { RequestAuth } from '../../auth/request-auth.js';
import type { Permission } from '../../integrator/types.js';
import type { Services } from '../../services.js';

/**
 * Checks the caller's permission on a file with the integrator and names the acting user for the content
 * engine (history entries, events). Throws the access service's errors (403 permissionDenied, 404, 401).
 */
export async function contentActor(services: Services, auth: RequestAuth, fileId: string, permission: Permission): Promise<ContentActor> {
  const { user } = await services.access.authorize(auth, fileId, permission);
  return { userId: user.id, token: auth.token, name: user.name };
}
