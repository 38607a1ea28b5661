import type { FileType } from '../model/file-types.js';
import type { SeatPolicy } from './seat-policy.js';

/**
 * An application (integrator) as every floor sees it: authentication signs with its secret, the integrator client
 * calls its endpoint, event delivery posts to it, the editor page is framed by its origins. Stored and changed by
 * AppService (domain/apps/app-service.ts); its changes are announced through AppChanges (app-changes.ts).
 */
export interface App {
  id: string;
  name: string;
  secret: string;
  availableFileTypes: FileType[];
  premiumFileTypes: FileType[];
  memberLimit: number;
  validFrom: number;
  validUntil: number | null;
  endpointUrl: string | null;
  /** Per-app override of the default request budget per second; null uses the service default. */
  qpsLimit: number | null;
  /**
   * Host origins allowed to frame the editor page (`frame-ancestors`, src/http/frame-ancestors.ts), in normal
   * form (apps/frame-origins.ts); empty: any origin.
   */
  frameOrigins: string[];
  /** who may use the application according to their seat (apps/seat-policy.ts) */
  seatPolicy: SeatPolicy;
}

export interface AppSettings {
  name?: string;
  availableFileTypes?: FileType[];
  premiumFileTypes?: FileType[];
  memberLimit?: number;
  validUntil?: number | null;
  endpointUrl?: string | null;
  qpsLimit?: number | null;
  /** replaces the list; [] allows any origin */
  frameOrigins?: string[];
  seatPolicy?: SeatPolicy;
}

/** Finds an application by id (AppService, with its short cache); what the floors below the domain look apps up through. */
export interface AppDirectory {
  find(appId: string): Promise<App | undefined>;
}
