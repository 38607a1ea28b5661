import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type * as Y from 'yjs';
import { ApiError, Errors } from '../../../errors.js';
import type { ContentService } from '../../content/content-service.js';
import type { FileType } from '../../../model/file-types.js';
import type { AnchoredSelection, ResolvedSelection, SelectionContext, SelectionModule } from './selection-module.js';

/** The one error every refusal of a selection answers with (400 / 74001). */
export function selectionNotFound(message: string): ApiError {
  return new ApiError(Errors.selectionNotFound, message);
}

/**
 * What a thread whose stored anchor cannot be read (damaged data: not JSON, not this kind's shape) resolves to:
 * detached, with the documented error 74006 instead of failing the whole answer.
 */
export function damagedSelection(kind: string): ResolvedSelection {
  return {
    detached: true,
    damaged: { code: Errors.selectionDamaged.code, message: `this thread's stored ${kind} selection cannot be read; its comments are intact` },
  };
}

/** A short account of what was sent, for refusals: `{from, to}`, `a string`, `nothing`. */
function describeInput(input: unknown): string {
  if (input === undefined || input === null) return 'nothing';
  if (Array.isArray(input)) return 'an array';
  if (typeof input === 'object') return `{${Object.keys(input).join(', ')}}`;
  return `a ${typeof input}`;
}

export interface SelectionModuleDefinition<Input extends TSchema, Anchor extends TSchema> {
  name: string;
  fileTypes: readonly FileType[];
  /** the accepted input, with descriptions (they document the API) */
  schema: Input;
  /** the accepted shapes in words, e.g. `{slideId} or {slideId, boxId}`: refusals name it */
  expected: string;
  /** what `anchor` stores; stored anchors are checked against it before `resolve` sees them */
  anchorSchema: Anchor;
  anchor(context: SelectionContext, input: Static<Input>): Promise<AnchoredSelection & { anchor: Static<Anchor> }>;
  resolve(context: SelectionContext, anchors: readonly Static<Anchor>[]): Promise<ResolvedSelection[]>;
}

/**
 * A selection module from its typed parts: the input is checked against the schema here, once for every
 * kind, so a selection of another kind (a document range sent for a spreadsheet) is refused with the shape
 * this kind expects.
 */
export function defineSelectionModule<Input extends TSchema, Anchor extends TSchema>(definition: SelectionModuleDefinition<Input, Anchor>): SelectionModule {
  return {
    name: definition.name,
    fileTypes: definition.fileTypes,
    schema: definition.schema,
    anchor(context, input) {
      if (!Value.Check(definition.schema, input)) {
        const first = Value.Errors(definition.schema, input).First();
        const detail = first && first.path !== '' ? ` (${first.path.slice(1).replace(/\//g, '.')}: ${first.message})` : '';
        return Promise.reject(selectionNotFound(`a selection in a ${definition.fileTypes.join(' or ')} file is ${definition.expected}; got ${describeInput(input)}${detail}`));
      }
      return definition.anchor(context, input);
    },
    async resolve(context, anchors) {
      // Anchors are written by `anchor` only: one that does not fit is damaged data, answered as such.
      const fitting = anchors.filter((anchor): anchor is Static<Anchor> => Value.Check(definition.anchorSchema, anchor));
      const resolved = (await definition.resolve(context, fitting))[Symbol.iterator]();
      return anchors.map((anchor) => (Value.Check(definition.anchorSchema, anchor) ? resolved.next().value! : damagedSelection(definition.name)));
    },
  };
}

/** Reads the file's content once for `use` (a shared document: live or cached; read it, never change it). */
export async function withContent<T>(content: ContentService, context: SelectionContext, use: (doc: Y.Doc) => T): Promise<T> {
  return use(await content.read(context.appId, context.fileId));
}
