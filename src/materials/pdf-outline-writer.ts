import { PDFArray, PDFHexString, PDFName, PDFNumber, PDFString, type PDFDocument, type PDFRef } from 'pdf-lib';

/** One bookmark: a title pointing at a 0-based page, optionally with nested bookmarks. */
export interface OutlineEntry {
  title: string;
  pageIndex: number;
  children?: OutlineEntry[];
}

export interface AddOutlineOptions {
  /**
   * Point bookmarks at named destinations (a /Names /Dests tree) instead of explicit page arrays. Real
   * exporters do both; readers must resolve either, so test fixtures exercise both.
   */
  namedDestinations?: boolean;
}

/**
 * Writes a document outline (bookmarks). pdf-lib has no API for outlines, so this builds the dictionaries
 * (/Outlines with /First /Last /Count, items with /Parent /Prev /Next /Dest) by hand.
 */
export function addOutline(doc: PDFDocument, entries: readonly OutlineEntry[], options: AddOutlineOptions = {}): void {
  if (entries.length === 0) return;
  const context = doc.context;
  const pageRefs = doc.getPages().map((page) => page.ref);
  const named: [string, PDFRef][] = [];

  const destinationFor = (pageIndex: number) => {
    const pageRef = pageRefs[pageIndex];
    if (pageRef === undefined) throw new RangeError(`outline entry points at missing page ${pageIndex}`);
    const explicit = context.obj([pageRef, PDFName.of('Fit')]);
    if (!options.namedDestinations) return explicit;
    // Zero-padded names keep the name tree's keys sorted, which the PDF spec requires.
    const name = `dest-${String(named.length).padStart(6, '0')}`;
    named.push([name, context.register(explicit)]);
    return PDFString.of(name);
  };

  // Returns the number of visible descendants, which is what /Count means for an open item.
  const writeLevel = (items: readonly OutlineEntry[], parent: PDFRef): { first: PDFRef; last: PDFRef; count: number } => {
    const refs = items.map(() => context.nextRef());
    let count = 0;
    items.forEach((item, index) => {
      const ref = refs[index] as PDFRef;
      const dict = context.obj({});
      dict.set(PDFName.of('Title'), PDFHexString.fromText(item.title));
      dict.set(PDFName.of('Parent'), parent);
      dict.set(PDFName.of('Dest'), destinationFor(item.pageIndex));
      const previous = refs[index - 1];
      const next = refs[index + 1];
      if (previous) dict.set(PDFName.of('Prev'), previous);
      if (next) dict.set(PDFName.of('Next'), next);
      count += 1;
      if (item.children && item.children.length > 0) {
        const child = writeLevel(item.children, ref);
        dict.set(PDFName.of('First'), child.first);
        dict.set(PDFName.of('Last'), child.last);
        dict.set(PDFName.of('Count'), PDFNumber.of(child.count));
        count += child.count;
      }
      context.assign(ref, dict);
    });
    return { first: refs[0] as PDFRef, last: refs[refs.length - 1] as PDFRef, count };
  };

  const outlinesRef = context.nextRef();
  const top = writeLevel(entries, outlinesRef);
  context.assign(
    outlinesRef,
    context.obj({ Type: 'Outlines', First: top.first, Last: top.last, Count: PDFNumber.of(top.count) }),
  );
  doc.catalog.set(PDFName.of('Outlines'), outlinesRef);
  doc.catalog.set(PDFName.of('PageMode'), PDFName.of('UseOutlines'));

  if (named.length > 0) {
    const names = PDFArray.withContext(context);
    for (const [name, ref] of named) {
      names.push(PDFString.of(name));
      names.push(ref);
    }
    const destsTree = context.obj({ Names: names });
    doc.catalog.set(PDFName.of('Names'), context.obj({ Dests: context.register(destsTree) }));
  }
}
