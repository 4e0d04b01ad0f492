import { create } from 'xmlbuilder2';

/*
 * The one XML writer (decision 043): Peppol UBL, PAXml and the Visma Administration file are built
 * as trees of `XmlElement` and serialized by xmlbuilder2, which escapes text and attribute values.
 * What this module adds is Ordo's policy, the same for every file:
 *
 * - characters XML 1.0 cannot carry (C0 controls other than tab, LF and CR; lone surrogates;
 *   U+FFFE, U+FFFF) are dropped from text and attribute values, never written (`xmlSafe`);
 * - a carriage return in text is written as `&#13;`, so a reader hands it over instead of folding
 *   it into a line feed;
 * - in an ISO-8859-1 file, a character above U+00FF (and a C1 control, which Windows-1252 reads as
 *   another character) is written as a numeric character reference, so the text encodes one byte a
 *   character with nothing lost.
 */

export type XmlAttrs = Record<string, string | null | undefined>;

export interface XmlElement {
  name: string;
  attrs: XmlAttrs;
  /** Text (a string) and elements, in order. */
  children: XmlChild[];
}
export type XmlChild = XmlElement | string;

export interface XmlWriteOptions {
  encoding: 'UTF-8' | 'ISO-8859-1';
  /** The line break after the declaration and at the end of the file, and between lines when indenting. */
  newline: string;
  /** Indent each element on its own line by this much; without it, the document is one line. */
  indent?: string;
}

/** Characters outside XML 1.0's Char production (lone surrogates included). */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
/** Stands for a carriage return in text until serialization; U+FFFE cannot come from the input, `xmlSafe` drops it. */
const CR_MARK = '\uFFFE';

/** Text without the characters XML 1.0 cannot carry. */
export function xmlSafe(value: string): string {
  return value.replace(NOT_XML, '');
}

/** An element; attributes that are null, undefined or empty are left out. */
export function xmlElement(name: string, attrs: XmlAttrs = {}, children: XmlChild[] = []): XmlElement {
  return { name, attrs, children };
}

type Builder = ReturnType<typeof create>;

function append(parent: Builder, el: XmlElement): void {
  const attrs: Record<string, string> = {};
  for (const [k, v] of Object.entries(el.attrs))
    if (v !== null && v !== undefined && v !== '') attrs[k] = xmlSafe(v).replace(/\r/g, CR_MARK);
  const node = parent.ele(el.name, attrs);
  for (const child of el.children) {
    if (typeof child === 'string') {
      const text = xmlSafe(child).replace(/\r/g, CR_MARK);
      if (text !== '') node.txt(text);
    } else append(node, child);
  }
}

/** The document: the XML declaration, the root element, a final line break. */
export function writeXml(root: XmlElement, options: XmlWriteOptions): string {
  const doc = create({ version: '1.0', encoding: options.encoding });
  append(doc, root);
  const body = doc.end({
    headless: true,
    prettyPrint: options.indent !== undefined,
    indent: options.indent,
    newline: options.newline,
  });
  let xml = `<?xml version="1.0" encoding="${options.encoding}"?>${options.newline}${body}${options.newline}`;
  xml = xml.replaceAll(CR_MARK, '&#13;');
  if (options.encoding === 'ISO-8859-1')
    xml = xml.replace(/[\u007F-\u009F]|[^\t\n\r\u0020-\u00FF]/gu, (ch) => `&#${ch.codePointAt(0)!};`);
  return xml;
}
