import JSZip from 'jszip';
import { XmlBufferInputProvider, XmlDocument, XmlElement as LibxmlElement, XmlValidateError, XsdValidator, xmlRegisterInputProvider } from 'libxml2-wasm';
import { xmlRegisterFsInputProviders } from 'libxml2-wasm/lib/nodejs.mjs';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import { outsideDataDirectory } from '../../scripts/outside-data.js';

/**
 * Checks of an Office Open XML package (docx, xlsx, pptx) against ECMA-376 (5th edition, Part 1 transitional and
 * Part 2 packaging), for what the service's exports write. Always, written down here for what we emit:
 * - every part is well-formed XML (a strict parser, namespaces checked);
 * - [Content_Types].xml gives a type to every part; every internal relationship points to a part that exists;
 * - the content models (xsd:sequence order and occurrence bounds) of the elements in CONTENT_MODELS;
 * - on/off attributes hold one of the ST_OnOff values; what the schemas allow and readers refuse or misread: a
 *   table cell not ending with a paragraph, a w:tblHeader of false (mammoth takes the element for a header row
 *   whatever its value).
 * In addition, when the transitional XML schemas are found (ooxmlSchemaFolder: `$SVC_OUTSIDE_DATA/ooxml-xsd`, else
 * ../shared/ooxml-xsd beside the repository, else test/fixtures/ooxml-xsd; they are not committed, that folder's
 * README says which files and where from): every part whose root is WordprocessingML, SpreadsheetML,
 * PresentationML, a DrawingML theme, content types or relationships validates against them (libxml2's validator
 * compiled to WebAssembly, each schema compiled once per process). Without them a line says the validation is
 * skipped, and the tests that need them are skipped (`it.skipIf(!ooxmlSchemaFolder)`).
 * Answers the problems found, as "part: element: what is wrong" / "part: line: what is wrong" lines.
 */

const NS = {
  a: 'http://schemas.openxmlformats.org/drawingml/2006/main',
  p: 'http://schemas.openxmlformats.org/presentationml/2006/main',
  w: 'http://schemas.openxmlformats.org/wordprocessingml/2006/main',
  s: 'http://schemas.openxmlformats.org/spreadsheetml/2006/main',
  ct: 'http://schemas.openxmlformats.org/package/2006/content-types',
  rel: 'http://schemas.openxmlformats.org/package/2006/relationships',
} as const;
type Prefix = keyof typeof NS;

interface XmlElement {
  uri: string;
  local: string;
  attributes: Record<string, string>;
  children: XmlElement[];
}

/** One item of a sequence: child element names (a choice), how often the item may occur. */
interface Particle {
  names: string[];
  min: number;
  max: number;
}

const one = (...names: string[]): Particle => ({ names, min: 1, max: 1 });
const optional = (...names: string[]): Particle => ({ names, min: 0, max: 1 });
const many = (...names: string[]): Particle => ({ names, min: 0, max: Infinity });
const some = (...names: string[]): Particle => ({ names, min: 1, max: Infinity });

/** EG_PContent (wml.xsd): what a w:p holds after its properties. */
const P_CONTENT = ['r', 'hyperlink', 'fldSimple', 'subDoc', 'customXml', 'smartTag', 'sdt', 'dir', 'bdo', 'proofErr', 'permStart', 'permEnd', 'bookmarkStart', 'bookmarkEnd', 'moveFromRangeStart', 'moveFromRangeEnd', 'moveToRangeStart', 'moveToRangeEnd', 'commentRangeStart', 'commentRangeEnd', 'ins', 'del', 'moveFrom', 'moveTo'].map((name) => `w:${name}`);
/** EG_RunInnerContent (wml.xsd): what a w:r holds after its properties. */
const RUN_CONTENT = ['br', 't', 'contentPart', 'delText', 'instrText', 'delInstrText', 'noBreakHyphen', 'softHyphen', 'dayShort', 'monthShort', 'yearShort', 'dayLong', 'monthLong', 'yearLong', 'annotationRef', 'footnoteRef', 'endnoteRef', 'separator', 'continuationSeparator', 'sym', 'pgNum', 'cr', 'tab', 'object', 'pict', 'fldChar', 'ruby', 'footnoteReference', 'endnoteReference', 'commentReference', 'drawing', 'ptab', 'lastRenderedPageBreak'].map((name) => `w:${name}`);

/**
 * The sequences of ECMA-376 Part 1 (transitional schemas) for the elements our exports write, keyed `prefix:local`
 * with children named the same way; a child not named by the sequence fails the check (the schemas allow nothing
 * else there, extLst aside, which is listed where it may stand).
 */
const CONTENT_MODELS: Record<string, Particle[]> = {
  // DrawingML text (dml-main.xsd)
  'a:p': [optional('a:pPr'), many('a:r', 'a:br', 'a:fld'), optional('a:endParaRPr')], // CT_TextParagraph
  'a:r': [optional('a:rPr'), one('a:t')], // CT_RegularTextRun
  'p:txBody': [one('a:bodyPr'), optional('a:lstStyle'), some('a:p')], // CT_TextBody
  'p:sp': [one('p:nvSpPr'), one('p:spPr'), optional('p:style'), optional('p:txBody'), optional('p:extLst')], // CT_Shape
  'p:pic': [one('p:nvPicPr'), one('p:blipFill'), one('p:spPr'), optional('p:style'), optional('p:extLst')], // CT_Picture
  // WordprocessingML (wml.xsd)
  'w:tbl': [many('w:bookmarkStart', 'w:bookmarkEnd'), one('w:tblPr'), one('w:tblGrid'), many('w:tr', 'w:bookmarkStart', 'w:bookmarkEnd')], // CT_Tbl
  'w:tr': [optional('w:tblPrEx'), optional('w:trPr'), many('w:tc', 'w:bookmarkStart', 'w:bookmarkEnd')], // CT_Row
  'w:tc': [optional('w:tcPr'), some('w:p', 'w:tbl', 'w:bookmarkStart', 'w:bookmarkEnd')], // CT_Tc: a cell holds a block
  'w:p': [optional('w:pPr'), many(...P_CONTENT)], // CT_P
  'w:r': [optional('w:rPr'), many(...RUN_CONTENT)], // CT_R
  // SpreadsheetML (sml.xsd)
  's:row': [many('s:c'), optional('s:extLst')], // CT_Row
  's:c': [optional('s:f'), optional('s:v'), optional('s:is'), optional('s:extLst')], // CT_Cell
  's:worksheet': [
    optional('s:sheetPr'),
    optional('s:dimension'),
    optional('s:sheetViews'),
    optional('s:sheetFormatPr'),
    many('s:cols'),
    one('s:sheetData'),
    optional('s:sheetCalcPr'),
    optional('s:sheetProtection'),
    optional('s:protectedRanges'),
    optional('s:scenarios'),
    optional('s:autoFilter'),
    optional('s:sortState'),
    optional('s:dataConsolidate'),
    optional('s:customSheetViews'),
    optional('s:mergeCells'),
    optional('s:phoneticPr'),
    many('s:conditionalFormatting'),
    optional('s:dataValidations'),
    optional('s:hyperlinks'),
    optional('s:printOptions'),
    optional('s:pageMargins'),
    optional('s:pageSetup'),
    optional('s:headerFooter'),
    optional('s:rowBreaks'),
    optional('s:colBreaks'),
    optional('s:customProperties'),
    optional('s:cellWatches'),
    optional('s:ignoredErrors'),
    optional('s:smartTags'),
    optional('s:drawing'),
    optional('s:legacyDrawing'),
    optional('s:legacyDrawingHF'),
    optional('s:drawingHF'),
    optional('s:picture'),
    optional('s:oleObjects'),
    optional('s:controls'),
    optional('s:webPublishItems'),
    optional('s:tableParts'),
    optional('s:extLst'),
  ], // CT_Worksheet
};

/** ST_OnOff (transitional): the values an on/off attribute may hold. */
const ON_OFF = new Set(['true', 'false', 'on', 'off', '0', '1']);
/** Elements of type CT_OnOff in WordprocessingML that our docx export writes. */
const WORD_ON_OFF = new Set(['b', 'i', 'strike', 'tblHeader', 'cantSplit', 'vanish', 'keepNext', 'keepLines', 'pageBreakBefore', 'bidiVisual']);

function nameOf(element: XmlElement): string {
  const prefix = (Object.keys(NS) as Prefix[]).find((key) => NS[key] === element.uri);
  return prefix ? `${prefix}:${element.local}` : `{${element.uri}}${element.local}`;
}

function parse(xml: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.on('opentag', (tag) => {
    const attributes: Record<string, string> = {};
    for (const attribute of Object.values(tag.attributes)) attributes[attribute.prefix ? `${attribute.prefix}:${attribute.local}` : attribute.local] = attribute.value;
    const element: XmlElement = { uri: tag.uri, local: tag.local, attributes, children: [] };
    if (stack.length > 0) stack[stack.length - 1]!.children.push(element);
    else root = element;
    stack.push(element);
  });
  parser.on('closetag', () => void stack.pop());
  parser.write(xml).close();
  if (!root) throw new Error('no root element');
  return root;
}

/** Where `children` break `model`: undefined when they follow it. */
function sequenceProblem(model: Particle[], children: readonly string[]): string | undefined {
  let at = 0;
  for (const particle of model) {
    let count = 0;
    while (at < children.length && particle.names.includes(children[at]!) && count < particle.max) {
      at++;
      count++;
    }
    if (count < particle.min) return `expected ${particle.names.join(' or ')} at child ${at + 1}${at < children.length ? `, found ${children[at]}` : ''}`;
  }
  return at < children.length ? `${children[at]} not allowed at child ${at + 1} (children: ${children.join(', ')})` : undefined;
}

/**
 * The structural problems of `element` and its descendants: content models (CONTENT_MODELS), on/off values, and
 * what the schemas allow and readers refuse or misread: a table cell that does not end with a paragraph (ECMA-376
 * Part 1, 17.4.66 asks for one in prose; Word reports such a file as damaged; told only when the cell's content
 * model holds, so an empty cell is one problem), a w:tblHeader that says a row is not a header row.
 */
function elementProblems(part: string, element: XmlElement, problems: string[]): void {
  const name = nameOf(element);
  const model = CONTENT_MODELS[name];
  const modelProblem = model ? sequenceProblem(model, element.children.map(nameOf)) : undefined;
  if (modelProblem) problems.push(`${part}: ${name}: ${modelProblem}`);
  else if (name === 'w:tc' && nameOf(element.children.at(-1) ?? element) !== 'w:p') problems.push(`${part}: w:tc: a table cell must end with a w:p`);
  if (element.uri === NS.w && WORD_ON_OFF.has(element.local)) {
    const value = element.attributes['w:val'];
    if (value !== undefined && !ON_OFF.has(value)) problems.push(`${part}: ${name}: w:val="${value}" is not an ST_OnOff value`);
    if (element.local === 'tblHeader' && value !== undefined && ['false', 'off', '0'].includes(value)) problems.push(`${part}: ${name}: a row that is not a header row says w:tblHeader="${value}" (readers take any w:tblHeader for a header row)`);
  }
  for (const child of element.children) elementProblems(part, child, problems);
}

/** The folder of a part, for resolving relative relationship targets (`word/_rels/document.xml.rels` → `word`). */
function sourceFolderOf(relsPart: string): string {
  return relsPart.replace(/(^|\/)_rels\/[^/]*\.rels$/, '');
}

function resolvePart(folder: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const segments = folder ? folder.split('/') : [];
  for (const segment of target.split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '.') segments.push(segment);
  }
  return segments.join('/');
}

/** The schema each root namespace is validated by (files of the schema folder). */
const SCHEMA_OF_ROOT: Record<string, string> = {
  [NS.w]: 'wml.xsd',
  [NS.s]: 'sml.xsd',
  [NS.p]: 'pml.xsd',
  [NS.a]: 'dml-main.xsd',
  [NS.ct]: 'opc-xsd/opc-contentTypes.xsd',
  [NS.rel]: 'opc-xsd/opc-relationships.xsd',
};

/**
 * The files the validation reads: the schemas of SCHEMA_OF_ROOT and those they include or import
 * (test/fixtures/ooxml-xsd/README.md lists the same).
 */
export const OOXML_SCHEMA_FILES: readonly string[] = [
  'wml.xsd',
  'sml.xsd',
  'pml.xsd',
  'dml-main.xsd',
  'dml-chart.xsd',
  'dml-chartDrawing.xsd',
  'dml-diagram.xsd',
  'dml-lockedCanvas.xsd',
  'dml-picture.xsd',
  'dml-spreadsheetDrawing.xsd',
  'dml-wordprocessingDrawing.xsd',
  'shared-commonSimpleTypes.xsd',
  'shared-customXmlSchemaProperties.xsd',
  'shared-math.xsd',
  'shared-relationshipReference.xsd',
  'opc-xsd/opc-contentTypes.xsd',
  'opc-xsd/opc-relationships.xsd',
];

/**
 * The folder holding every file of OOXML_SCHEMA_FILES, found as every fetched data set is (scripts/outside-data.ts:
 * `$SVC_OUTSIDE_DATA/ooxml-xsd`, ../shared/ooxml-xsd beside the repository, the git-ignored test/fixtures/ooxml-xsd);
 * undefined, and a line on the console saying the validation is skipped, when none holds them all.
 */
function findSchemaFolder(): string | undefined {
  const complete = (folder: string) => OOXML_SCHEMA_FILES.every((file) => existsSync(join(folder, file)));
  const found = outsideDataDirectory('ooxml-xsd', complete);
  if (!found) {
    console.warn(
      'test/support/ooxml.ts: ECMA-376 schemas not found ($SVC_OUTSIDE_DATA/ooxml-xsd, ../shared/ooxml-xsd, test/fixtures/ooxml-xsd): ' +
        'Office exports get the structural checks only, no XSD validation; test/fixtures/ooxml-xsd/README.md says which files to place there',
    );
  }
  return found;
}

/** Where the schemas were found; undefined when they were not, and parts are not validated against them. */
export const ooxmlSchemaFolder: string | undefined = findSchemaFolder();

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
/** Where the validator reads XML_NAMESPACE_SCHEMA from (a name of ours, served from memory). */
const XML_NAMESPACE_SCHEMA_URL = 'urn:svc:test:xml-namespace.xsd';
/**
 * The attributes of the XML namespace (xml:lang, xml:space, xml:base, xml:id) as the XML and XML Schema
 * recommendations define them: wml.xsd and shared-math.xsd import the namespace without naming a file, and the
 * validator must not fetch one from the network.
 */
const XML_NAMESPACE_SCHEMA = `<?xml version="1.0" encoding="utf-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="${XML_NAMESPACE}">
  <xs:attribute name="lang">
    <xs:simpleType>
      <xs:union memberTypes="xs:language">
        <xs:simpleType>
          <xs:restriction base="xs:string">
            <xs:enumeration value=""/>
          </xs:restriction>
        </xs:simpleType>
      </xs:union>
    </xs:simpleType>
  </xs:attribute>
  <xs:attribute name="space">
    <xs:simpleType>
      <xs:restriction base="xs:NCName">
        <xs:enumeration value="default"/>
        <xs:enumeration value="preserve"/>
      </xs:restriction>
    </xs:simpleType>
  </xs:attribute>
  <xs:attribute name="base" type="xs:anyURI"/>
  <xs:attribute name="id" type="xs:ID"/>
</xs:schema>
`;
const validators = new Map<string, XsdValidator>();

/**
 * The validator of the schema for `namespace`, compiled on first use (wml.xsd takes a second or two). The schemas
 * import the XML namespace without naming a file, so each is compiled through a schema that imports
 * XML_NAMESPACE_SCHEMA first.
 */
function validatorFor(folder: string, namespace: string): XsdValidator {
  let validator = validators.get(namespace);
  if (!validator) {
    if (validators.size === 0) {
      xmlRegisterFsInputProviders();
      xmlRegisterInputProvider(new XmlBufferInputProvider({ [XML_NAMESPACE_SCHEMA_URL]: new TextEncoder().encode(XML_NAMESPACE_SCHEMA) }));
    }
    const driver = `<?xml version="1.0"?><xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:svc:test:schema-driver"><xs:import namespace="${XML_NAMESPACE}" schemaLocation="${XML_NAMESPACE_SCHEMA_URL}"/><xs:import namespace="${namespace}" schemaLocation="${SCHEMA_OF_ROOT[namespace]}"/></xs:schema>`;
    const schema = XmlDocument.fromString(driver, { url: join(folder, 'schema-driver.xsd') });
    validator = XsdValidator.fromDoc(schema);
    validators.set(namespace, validator);
  }
  return validator;
}

const MARKUP_COMPATIBILITY = 'http://schemas.openxmlformats.org/markup-compatibility/2006';

/**
 * The part as a reader that knows none of the ignorable extensions sees it (ECMA-376 Part 3, Markup
 * Compatibility): attributes and elements of the namespaces an `mc:Ignorable` names are dropped, as are the
 * `mc:` attributes themselves. Office's writers (and exceljs) mark their later additions so (`x14ac:dyDescent`).
 */
function ignoreExtensions(element: LibxmlElement, ignored: ReadonlySet<string>): void {
  const declared = element.attrs.find((attribute) => attribute.namespaceUri === MARKUP_COMPATIBILITY && attribute.name === 'Ignorable');
  const ignoredHere = declared
    ? new Set([...ignored, ...declared.value.trim().split(/\s+/).map((prefix) => element.namespaceForPrefix(prefix) ?? '')])
    : ignored;
  for (const attribute of element.attrs) {
    if (attribute.namespaceUri === MARKUP_COMPATIBILITY || ignoredHere.has(attribute.namespaceUri)) attribute.remove();
  }
  const children: LibxmlElement[] = [];
  for (let child = element.firstChild; child; child = child.next) if (child instanceof LibxmlElement) children.push(child);
  for (const child of children) {
    if (ignoredHere.has(child.namespaceUri)) child.remove();
    else ignoreExtensions(child, ignoredHere);
  }
}

/** What the schema of the part's root says is wrong with it; nothing for a part of another kind, or without the schemas. */
function schemaProblems(part: string, xml: string, root: XmlElement): string[] {
  if (!ooxmlSchemaFolder || !SCHEMA_OF_ROOT[root.uri]) return [];
  const validator = validatorFor(ooxmlSchemaFolder, root.uri);
  const document = XmlDocument.fromString(xml);
  try {
    ignoreExtensions(document.root, new Set());
    validator.validate(document);
    return [];
  } catch (error) {
    if (!(error instanceof XmlValidateError)) throw error;
    return error.details.map((detail) => `${part}: line ${detail.line}: ${detail.message.trim()}`);
  } finally {
    document.dispose();
  }
}

export async function ooxmlProblems(bytes: Uint8Array): Promise<string[]> {
  const zip = await JSZip.loadAsync(bytes);
  const parts = Object.keys(zip.files).filter((name) => !zip.files[name]!.dir);
  const problems: string[] = [];
  const trees = new Map<string, XmlElement>();
  for (const part of parts.filter((name) => /\.(xml|rels)$/.test(name))) {
    const xml = await zip.file(part)!.async('string');
    let tree: XmlElement;
    try {
      tree = parse(xml);
    } catch (error) {
      problems.push(`${part}: not well-formed XML: ${(error as Error).message}`);
      continue;
    }
    trees.set(part, tree);
    problems.push(...schemaProblems(part, xml, tree));
  }
  const types = trees.get('[Content_Types].xml');
  if (!types) return [...problems, '[Content_Types].xml: missing'];
  const defaults = new Set(types.children.filter((entry) => entry.local === 'Default').map((entry) => entry.attributes.Extension?.toLowerCase()));
  const overrides = new Set(types.children.filter((entry) => entry.local === 'Override').map((entry) => entry.attributes.PartName));
  for (const part of parts.filter((name) => name !== '[Content_Types].xml')) {
    const extension = part.split('.').pop()!.toLowerCase();
    if (!overrides.has(`/${part}`) && !defaults.has(extension)) problems.push(`[Content_Types].xml: no content type for ${part}`);
  }
  for (const override of overrides) if (override && !parts.includes(override.slice(1))) problems.push(`[Content_Types].xml: an override names ${override}, which is not in the package`);
  for (const [part, tree] of trees) {
    if (part.endsWith('.rels')) {
      for (const relationship of tree.children) {
        if (relationship.attributes.TargetMode === 'External') continue;
        const target = resolvePart(sourceFolderOf(part), relationship.attributes.Target ?? '');
        if (!parts.includes(target)) problems.push(`${part}: relationship ${relationship.attributes.Id} points to ${target}, which is not in the package`);
      }
    } else elementProblems(part, tree, problems);
  }
  return problems;
}
