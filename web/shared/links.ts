import { HostRequest, ProtocolError } from '../../sdk/protocol.js';
import { BridgeError, type FrameBridge } from './bridge.js';

/** Schemes a link may open; anything else (javascript:, data:, …) is never followed. */
const OPENABLE = /^(https?:|mailto:|tel:)/i;

/**
 * Opens `url` the way the integrator wants: the host page's `openLink(url, target)`; without a host page or
 * without the handler, a new tab (noopener). Only http(s), mailto and tel links open at all.
 */
export async function openLink(bridge: FrameBridge, url: string, target = '_blank'): Promise<void> {
  if (!OPENABLE.test(url.trim())) return;
  try {
    await bridge.callHost(HostRequest.openLink, url, target);
  } catch (error) {
    if (!(error instanceof BridgeError && error.code === ProtocolError.noHandler)) throw error;
    window.open(url, target, 'noopener,noreferrer');
  }
}

/** How a mention shares the file (`generateUrl`'s second argument). */
export interface SharingInfo {
  sharingType?: string;
  sharingText?: string;
}

/**
 * The integrator's URL of a collaborative file (for a mention of it): the host page's `generateUrl(fileId,
 * info)`, or null when there is no host page or no handler (the mention then shows without a link).
 */
export async function fileUrl(bridge: FrameBridge, fileId: string, info?: SharingInfo): Promise<string | null> {
  try {
    const url = await bridge.callHost<unknown>(HostRequest.generateUrl, fileId, ...(info ? [info] : []));
    return typeof url === 'string' && OPENABLE.test(url.trim()) ? url : null;
  } catch (error) {
    if (error instanceof BridgeError && error.code === ProtocolError.noHandler) return null;
    throw error;
  }
}

/**
 * Routes clicks on links through `openLink`, so that the iframe itself never navigates away: every link
 * outside editable text, and, inside it, a Ctrl/⌘-click (a plain click there places the caret).
 */
export function routeLinkClicks(bridge: FrameBridge, root: HTMLElement, onError: (error: unknown) => void): void {
  root.addEventListener(
    'click',
    (event) => {
      const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(anchor instanceof HTMLAnchorElement) || event.button !== 0) return;
      const editable = anchor.closest('[contenteditable="true"]') !== null;
      if (editable && !(event.ctrlKey || event.metaKey)) return;
      event.preventDefault();
      event.stopPropagation();
      openLink(bridge, anchor.href, anchor.target || '_blank').catch(onError);
    },
    { capture: true },
  );
}
