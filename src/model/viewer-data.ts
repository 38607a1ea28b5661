/**
 * What the viewer page hands its script (web/preview/viewer.ts) in `<script type="application/json"
 * id="svc-preview">`: where the parts are (links valid for a while, docs/IMPORT-EXPORT.md "Preview") and how to
 * lay them out.
 */
export type ViewerData = (
  | { shows: 'image'; src: string }
  | { shows: 'pages'; pages: string[]; layout: 'document' | 'sheet' | 'slide' }
  | { shows: 'pdf'; src: string; pageCount: number }
) & {
  /** the lines of the viewing user's watermark drawn over the viewer (src/model/watermark.ts); empty: none */
  watermark: string[];
};
