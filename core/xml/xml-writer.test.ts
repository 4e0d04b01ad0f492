import { decode } from '~/tests/helpers/paxml-reader';
import * as fxp from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { writeXml, xmlElement as e, xmlSafe } from './xml-writer';

/** Read back by fast-xml-parser, which must find the document well-formed. */
function read(xml: string) {
  expect(fxp.validate(xml)).toBe(true);
  return fxp.parse(xml, {
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    textNodeName: '#text',
    parseNodeValue: false,
    parseAttributeValue: false,
    trimValues: false,
    tagValueProcessor: (v: string) => decode(v),
    attrValueProcessor: (v: string) => decode(v),
  });
}

describe('[xml] the one XML writer', () => {
  it('escapes markup in text and attributes, and a reader gets the text back', () => {
    const xml = writeXml(e('r', { a: 'x"&<\'' }, ['a & b < c > "d" \'e\'']), { encoding: 'UTF-8', newline: '\n' });
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<r a="x&quot;&amp;&lt;\'">a &amp; b &lt; c &gt; "d" \'e\'</r>\n',
    );
    expect(read(xml).r).toEqual({ '@a': 'x"&<\'', '#text': 'a & b < c > "d" \'e\'' });
  });

  it('drops what XML 1.0 cannot carry: controls, lone surrogates, U+FFFE and U+FFFF', () => {
    const dirty = 'a\u0000b\u0007c\u001Fd\uD800e\uDC00f\uFFFEg\uFFFFh 😀\tend';
    expect(xmlSafe(dirty)).toBe('abcdefgh 😀\tend');
    const xml = writeXml(e('r', { a: dirty }, [dirty, e('empty', {}, ['\u0001'])]), {
      encoding: 'UTF-8',
      newline: '\n',
    });
    expect(xml).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<r a="abcdefgh 😀\tend">abcdefgh 😀\tend<empty/></r>\n');
    // nothing invalid reached the file: no control other than tab/LF, no lone surrogate
    // eslint-disable-next-line no-control-regex
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|\p{Cs}/u);
  });

  it('keeps a carriage return in text as &#13;, so a reader does not fold it into a line feed', () => {
    const xml = writeXml(e('r', {}, ['one\r\ntwo']), { encoding: 'UTF-8', newline: '\n' });
    expect(xml).toContain('<r>one&#13;\ntwo</r>');
    expect(read(xml).r).toBe('one\r\ntwo');
  });

  it('writes ISO-8859-1 text one byte a character, the rest as character references', () => {
    const xml = writeXml(e('ADK', {}, [e('T', {}, ['Åsa – 5 € 🔧 \u0085']), e('N', { skip: null }, ['1'])]), {
      encoding: 'ISO-8859-1',
      newline: '\r\n',
      indent: '  ',
    });
    expect(xml).toBe(
      '<?xml version="1.0" encoding="ISO-8859-1"?>\r\n<ADK>\r\n  <T>Åsa &#8211; 5 &#8364; &#128295; &#133;</T>\r\n  <N>1</N>\r\n</ADK>\r\n',
    );
    expect([...xml].every((c) => c.codePointAt(0)! <= 0xff)).toBe(true);
    expect(read(xml).ADK.T).toBe('Åsa – 5 € 🔧 \u0085');
  });
});
