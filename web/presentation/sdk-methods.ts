import type { FrameBridge } from '../shared/bridge.js';
import type { Presenter } from './presenter.js';

/**
 * The presentation's SDK methods (browser-sdk.md "Editor methods", presentation): `editor.startDemonstration()`
 * presents from the slide open in the editor, `editor.endDemonstration()` returns to editing.
 */
export function registerPresentationMethods(bridge: FrameBridge, presenter: Presenter, currentIndex: () => number): void {
  bridge.registerMethods({
    startDemonstration: () => presenter.start(currentIndex()),
    endDemonstration: () => presenter.end(),
  });
}
