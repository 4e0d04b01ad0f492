import * as fxp from 'fast-xml-parser';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The five predefined XML entities and character references back to text. */
export const decode = (s: string) =>
  s
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/**
 * Reads a PAXml file back with an XML parser of its own (fast-xml-parser, not our writer): it must
 * be well-formed; values stay text (entities decoded), attributes are `@name`, and the repeated
 * transactions are always arrays.
 */
export function readPaxml(xml: string): Json {
  const valid = fxp.validate(xml);
  if (valid !== true) throw new Error(`not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  return fxp.parse(xml, {
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    parseNodeValue: false,
    parseAttributeValue: false,
    arrayMode: (tag: string) => tag === 'tidtrans' || tag === 'lonetrans',
    tagValueProcessor: (v: string) => decode(v),
    attrValueProcessor: (v: string) => decode(v),
  }) as Json;
}
