/** What the viewer (viewer.ts) and each kind of preview it loads (pdf.ts) agree on. */

/** What a kind of preview does when the toolbar is used. */
export interface Presenter {
  pageCount: number;
  /** the page (0-based) the reader is on */
  current(): number;
  show(page: number): void;
  zoom(factor: number): void;
}

export interface ViewerElements {
  stage: HTMLElement;
  sheets: HTMLElement;
  /** "Page": a frame's accessible name is this and its number */
  pageLabel: string;
  /** the toolbar shows the page again (the pdf calls it as the reader scrolls) */
  refresh(): void;
  /** zooms out so that a sheet `width` CSS pixels wide fits the stage, if it does not at 100 % */
  fitWidth(width: number): void;
}
