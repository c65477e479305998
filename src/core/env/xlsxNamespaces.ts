/**
 * Workbooks whose XML parts name the Office Open XML namespaces under other prefixes than Excel does. XML
 * namespaces make `<ns0:Relationships xmlns:ns0="…/relationships">` the same element as `<Relationships
 * xmlns="…/relationships">`, and Excel reads both; ExcelJS matches elements by their written names, so a workbook
 * written by Python's ElementTree (`ns0:`), or by a tool that registered its own prefixes (`s:workbook`), fails with
 * "Unexpected xml node". Such parts are rewritten here, element by element through a namespace-aware XML parser,
 * with each known namespace under the prefix Excel writes (none for the part's main namespace, `r:` for
 * relationship ids, `cp:`/`dc:` for the core properties…); names in other namespaces keep their own prefixes.
 */
import * as fs from 'node:fs';
import JSZip from 'jszip';
import { SaxesParser, type SaxesAttributeNS, type SaxesTagNS } from 'saxes';

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/** Namespace URI → the prefix Excel writes it under ('' for a part's default namespace), per ECMA-376 (transitional). */
const CONVENTIONAL_PREFIX: ReadonlyMap<string, string> = new Map([
  ['http://schemas.openxmlformats.org/spreadsheetml/2006/main', ''],
  ['http://schemas.openxmlformats.org/package/2006/relationships', ''],
  ['http://schemas.openxmlformats.org/package/2006/content-types', ''],
  ['http://schemas.openxmlformats.org/officeDocument/2006/extended-properties', ''],
  ['http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes', 'vt'],
  ['http://schemas.openxmlformats.org/officeDocument/2006/relationships', 'r'],
  ['http://schemas.openxmlformats.org/package/2006/metadata/core-properties', 'cp'],
  ['http://purl.org/dc/elements/1.1/', 'dc'],
  ['http://purl.org/dc/terms/', 'dcterms'],
  ['http://purl.org/dc/dcmitype/', 'dcmitype'],
  ['http://www.w3.org/2001/XMLSchema-instance', 'xsi'],
  ['http://schemas.openxmlformats.org/markup-compatibility/2006', 'mc'],
  ['http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac', 'x14ac'],
  ['http://schemas.openxmlformats.org/drawingml/2006/main', 'a'],
  ['http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing', 'xdr'],
]);

/** Whether the start of a part declares a known namespace under a prefix other than Excel's. */
export function hasUnconventionalPrefixes(head: string): boolean {
  for (const match of head.matchAll(/\bxmlns(?::([A-Za-z_][\w.-]*))?\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    const wanted = CONVENTIONAL_PREFIX.get(match[2] ?? match[3]);
    if (wanted !== undefined && wanted !== (match[1] ?? '')) return true;
  }
  return false;
}

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
const escapeAttribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');

/**
 * One XML part with every known namespace under Excel's prefix: the same elements, attributes, text and processing
 * instructions (comments are dropped). Throws on XML that is not well-formed.
 */
export function withConventionalPrefixes(xml: string): string {
  const parser = new SaxesParser({ xmlns: true });
  const out: string[] = [];
  // The output's bindings, prefix → URI, one map per open element (declarations it makes).
  const scopes: Array<Map<string, string>> = [new Map([['xml', XML_NS]])];
  const lookup = (prefix: string, own: Map<string, string>) => {
    if (own.has(prefix)) return own.get(prefix);
    for (let i = scopes.length - 1; i >= 0; i--) if (scopes[i].has(prefix)) return scopes[i].get(prefix);
    return prefix === '' ? '' : undefined;
  };
  let generated = 0;
  /** The output prefix for `uri` (declaring it in `own` if needed); `attribute`: never the default namespace. */
  const prefixFor = (uri: string, original: string, own: Map<string, string>, attribute: boolean): string => {
    if (uri === XML_NS) return 'xml';
    const conventional = CONVENTIONAL_PREFIX.get(uri);
    const candidates = [conventional ?? original, original].filter((p) => !(attribute && p === ''));
    for (;;) {
      for (const candidate of candidates) {
        const bound = lookup(candidate, own);
        if (bound === uri) return candidate;
        if (bound === undefined || (candidate === '' && bound === '' && !own.has(''))) {
          own.set(candidate, uri);
          return candidate;
        }
      }
      candidates.splice(0, candidates.length, `ns${++generated}`);
    }
  };
  const names: string[] = [];
  parser.on('xmldecl', () => out.push('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'));
  parser.on('processinginstruction', (pi) => out.push(`<?${pi.target}${pi.body ? ` ${pi.body}` : ''}?>`));
  parser.on('text', (text) => out.push(escapeText(text)));
  parser.on('cdata', (text) => out.push(escapeText(text)));
  parser.on('opentag', (tag: SaxesTagNS) => {
    const own = new Map<string, string>();
    const attributes = Object.values(tag.attributes) as SaxesAttributeNS[];
    let name: string;
    if (tag.uri === '') {
      // No namespace: written bare, undeclaring a default namespace the output has in scope.
      if (lookup('', own) !== '') own.set('', '');
      name = tag.local;
    } else {
      const prefix = prefixFor(tag.uri, tag.prefix, own, false);
      name = prefix ? `${prefix}:${tag.local}` : tag.local;
    }
    const written: string[] = [];
    for (const attribute of attributes) {
      if (attribute.uri === XMLNS_NS || attribute.name === 'xmlns') continue;
      if (attribute.uri === '') {
        written.push(`${attribute.local}="${escapeAttribute(attribute.value)}"`);
        continue;
      }
      // An attribute in the part's own default namespace is written bare, as Excel writes it.
      if (CONVENTIONAL_PREFIX.get(attribute.uri) === '') {
        written.push(`${attribute.local}="${escapeAttribute(attribute.value)}"`);
        continue;
      }
      const prefix = prefixFor(attribute.uri, attribute.prefix, own, true);
      written.push(`${prefix}:${attribute.local}="${escapeAttribute(attribute.value)}"`);
    }
    // The element's other declarations stay declared (an `mc:Ignorable` list names prefixes in its value).
    for (const attribute of attributes) {
      if (attribute.uri !== XMLNS_NS && attribute.name !== 'xmlns') continue;
      const declared = attribute.name === 'xmlns' ? '' : attribute.local;
      if (attribute.value !== '') prefixFor(attribute.value, declared, own, false);
    }
    const declarations = [...own].map(([prefix, uri]) => `${prefix ? `xmlns:${prefix}` : 'xmlns'}="${escapeAttribute(uri)}"`);
    out.push(`<${[name, ...declarations, ...written].join(' ')}${tag.isSelfClosing ? '/>' : '>'}`);
    if (tag.isSelfClosing) return;
    scopes.push(own);
    names.push(name);
  });
  parser.on('closetag', (tag: SaxesTagNS) => {
    if (tag.isSelfClosing) return;
    scopes.pop();
    out.push(`</${names.pop()}>`);
  });
  parser.on('error', (error) => {
    throw error;
  });
  parser.write(xml).close();
  return out.join('');
}

/**
 * The workbook's zip package with the named parts rewritten by `withConventionalPrefixes`; the other parts keep
 * their compressed bytes. Only called for packages whose inflated size the zip-bomb check has already bounded.
 */
export async function packageWithConventionalPrefixes(file: string, parts: readonly string[]): Promise<Buffer> {
  const zip = await JSZip.loadAsync(await fs.promises.readFile(file));
  for (const part of parts) {
    const entry = zip.file(part);
    if (!entry) continue;
    zip.file(part, withConventionalPrefixes(await entry.async('string')));
  }
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 1 } });
}
