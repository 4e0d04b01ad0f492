import { SaxesParser } from 'saxes';

/*
 * The well-formedness check in front of every XML document Ordo reads from outside (Peppol invoices
 * and order responses). xmlbuilder2, which builds the DOM the readers walk, is lenient: it does not
 * check that an end tag matches its start tag, nor that the document is complete. saxes is a strict
 * XML 1.0 parser (with namespaces): a document it refuses is not read at all (decision 054).
 */

/** Why a document is not well-formed XML, with where saxes found it ("3:17: …"). */
export class XmlNotWellFormed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlNotWellFormed';
  }
}

/** Throws XmlNotWellFormed unless `xml` is one well-formed, namespace-well-formed XML document. */
export function assertWellFormedXml(xml: string): void {
  const parser = new SaxesParser({ xmlns: true, position: true });
  let first: Error | null = null;
  parser.on('error', (e) => {
    first ??= e;
  });
  parser.write(xml).close();
  if (first) throw new XmlNotWellFormed((first as Error).message);
}
