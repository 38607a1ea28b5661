import { MARKDOWN_CONTENT_ONLY, markdownForms } from '../../src/domain/export/converters/markdown.js';
import { describeSchemaForms } from './schema-forms.js';

// each node's and mark's `markdownForm` (in its own extension file) against the schema
const forms = markdownForms();
describeSchemaForms('Markdown', { nodes: [...forms.nodes.keys()], marks: [...forms.marks.keys()] }, MARKDOWN_CONTENT_ONLY);
