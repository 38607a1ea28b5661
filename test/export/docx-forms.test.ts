import { DOCX_DROPPED, DOCX_FORMS } from '../../src/domain/export/converters/docx.js';
import { describeSchemaForms } from './schema-forms.js';

// the docx writer's hand-made tables (BLOCK_WRITERS, INLINE_WRITERS, MARK_RUNS) against the schema
describeSchemaForms('Word', DOCX_FORMS, DOCX_DROPPED);
