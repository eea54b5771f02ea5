// Word documents that would make a converter fetch an address: one for every kind of external
// reference a DOCX package can carry, each pointing at an address a test listens on. Made in code
// like every other sample, so a reader sees exactly what each case feeds in. Test support only.
import { unzipSync, zipSync } from 'fflate';
import {
  docxXml,
  makeDocx,
  makeFivePageDocx,
  makeManyEntriesDocx,
  makePng,
  makeSampleDocx,
  makeZipBombDocx,
  WORD_NS,
} from './sample-files';

const RELATIONSHIP_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const WORDML_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml';

/** The text every hostile document holds, so a test can see the conversion kept it. */
export const HOSTILE_DOCX_TEXT = 'The statement the applicant wrote';

/** Builds an address on the listener for one case, e.g. url('linked-picture.png'). */
export type ListenerUrl = (name: string) => string;

const escapeAttribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

const relationship = (id: string, type: string, target: string, external = true) =>
  `<Relationship Id="${id}" Type="${RELATIONSHIP_TYPE}/${type}" Target="${escapeAttribute(target)}"${external ? ' TargetMode="External"' : ''}/>`;

/** A 64 x 64 px picture whose <a:blip> carries the given attributes (r:embed, r:link...). */
export const pictureWithBlip = (blipAttributes: string) =>
  `<w:p><w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="609600" cy="609600"/><wp:docPr id="7" name="Picture 7"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="0" name="picture"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip ${blipAttributes}/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="609600" cy="609600"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;

/** A field in Word's complex form: begin, instruction, separate, cached result, end. */
export const complexField = (instruction: string, result = 'cached result') =>
  `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ${escapeAttribute(instruction)} </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>${result}</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`;

/** A field in Word's simple form: <w:fldSimple w:instr="..."> around its cached result. */
export const simpleField = (instruction: string, result = 'cached result') =>
  `<w:p><w:fldSimple w:instr=" ${escapeAttribute(instruction)} "><w:r><w:t>${result}</w:t></w:r></w:fldSimple></w:p>`;

const wordPart = (root: string, inner: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:${root} ${WORD_NS}>${inner}</w:${root}>`;

const text = docxXml.paragraph(HOSTILE_DOCX_TEXT);
const preview = { name: 'preview.png', bytes: makePng({ width: 16, height: 16 }) };

/** The field instructions that read another file, with where each one's address goes. */
const FETCHING_FIELDS = {
  INCLUDEPICTURE: (url: string) => `INCLUDEPICTURE "${url}" \\d`,
  INCLUDETEXT: (url: string) => `INCLUDETEXT "${url}"`,
  LINK: (url: string) => `LINK Word.Document.12 "${url}" "" \\a \\f 0`,
  DDE: (url: string) => `DDE soffice "${url}" "range"`,
  DDEAUTO: (url: string) => `DDEAUTO soffice "${url}" "range"`,
  IMPORT: (url: string) => `IMPORT "${url}"`,
} as const;

/** A package whose <name> part is a footnotes, endnotes or comments part holding `inner`. */
function withNotesPart(
  part: 'footnotes' | 'endnotes' | 'comments',
  inner: string,
  reference: string,
  partRelationships: string,
): Uint8Array {
  const root = { footnotes: 'footnotes', endnotes: 'endnotes', comments: 'comments' }[part];
  return makeDocx(text + reference, {
    relationships: {
      'word/document.xml': relationship(`rId${part}`, part, `${part}.xml`, false),
      [`word/${part}.xml`]: partRelationships,
    },
    parts: {
      [`word/${part}.xml`]: {
        content: wordPart(root, inner),
        contentType: `${WORDML_TYPE}.${part}+xml`,
      },
    },
  });
}

/** A package with a settings part holding `settings`, and its relationships. */
function withSettings(settings: string, settingsRelationships: string): Uint8Array {
  return makeDocx(text, {
    relationships: {
      'word/document.xml': relationship('rIdSettings', 'settings', 'settings.xml', false),
      'word/settings.xml': settingsRelationships,
    },
    parts: {
      'word/settings.xml': {
        content: wordPart('settings', settings),
        contentType: `${WORDML_TYPE}.settings+xml`,
      },
    },
  });
}

const linkedPicture = (url: ListenerUrl) =>
  makeDocx(text + pictureWithBlip('r:link="rIdRemote"'), {
    relationships: {
      'word/document.xml': relationship('rIdRemote', 'image', url('linked-picture.png')),
    },
  });

/** Every case, by a name that says where the reference hides. */
export const HOSTILE_DOCX: Readonly<Record<string, (url: ListenerUrl) => Uint8Array>> = {
  'linked picture (a:blip r:link)': linkedPicture,
  'picture embedded from an address (r:embed to an external relationship)': (url) =>
    makeDocx(text + pictureWithBlip('r:embed="rIdRemote"'), {
      relationships: {
        'word/document.xml': relationship('rIdRemote', 'image', url('embedded-picture.png')),
      },
    }),
  'picture linked through a hyperlink relationship': (url) =>
    makeDocx(
      `${text}<w:p><w:hyperlink r:id="rIdRemote"><w:r><w:t>a link</w:t></w:r></w:hyperlink></w:p>${pictureWithBlip('r:link="rIdRemote"')}`,
      {
        relationships: {
          'word/document.xml': relationship('rIdRemote', 'hyperlink', url('hyperlink-picture.png')),
        },
      },
    ),
  'picture whose internal target is an address': (url) =>
    makeDocx(text + pictureWithBlip('r:embed="rIdRemote"'), {
      relationships: {
        'word/document.xml': relationship('rIdRemote', 'image', url('internal-target.png'), false),
      },
    }),
  'VML picture (v:imagedata r:id)': (url) =>
    makeDocx(
      `${text}<w:p><w:r><w:pict><v:shape style="width:48pt;height:48pt"><v:imagedata r:id="rIdRemote" o:title=""/></v:shape></w:pict></w:r></w:p>`,
      {
        relationships: { 'word/document.xml': relationship('rIdRemote', 'image', url('vml.png')) },
      },
    ),
  'linked picture in a header': (url) =>
    makeDocx(text, {
      headerXml: pictureWithBlip('r:link="rIdRemote"'),
      relationships: {
        'word/header1.xml': relationship('rIdRemote', 'image', url('header-picture.png')),
      },
    }),
  'linked picture in a footer': (url) =>
    makeDocx(text, {
      footerXml: pictureWithBlip('r:link="rIdRemote"'),
      relationships: {
        'word/footer1.xml': relationship('rIdRemote', 'image', url('footer-picture.png')),
      },
    }),
  'linked picture in a footnote': (url) =>
    withNotesPart(
      'footnotes',
      `<w:footnote w:id="1">${pictureWithBlip('r:link="rIdRemote"')}</w:footnote>`,
      '<w:p><w:r><w:footnoteReference w:id="1"/></w:r></w:p>',
      relationship('rIdRemote', 'image', url('footnote-picture.png')),
    ),
  'linked picture in an endnote': (url) =>
    withNotesPart(
      'endnotes',
      `<w:endnote w:id="1">${pictureWithBlip('r:link="rIdRemote"')}</w:endnote>`,
      '<w:p><w:r><w:endnoteReference w:id="1"/></w:r></w:p>',
      relationship('rIdRemote', 'image', url('endnote-picture.png')),
    ),
  'linked picture in a comment': (url) =>
    withNotesPart(
      'comments',
      `<w:comment w:id="1" w:author="A">${pictureWithBlip('r:link="rIdRemote"')}</w:comment>`,
      '<w:p><w:commentRangeStart w:id="1"/><w:r><w:t>noted</w:t></w:r><w:commentRangeEnd w:id="1"/><w:r><w:commentReference w:id="1"/></w:r></w:p>',
      relationship('rIdRemote', 'image', url('comment-picture.png')),
    ),
  'linked picture in the glossary document': (url) =>
    makeDocx(text, {
      relationships: {
        'word/document.xml': relationship(
          'rIdGlossary',
          'glossaryDocument',
          'glossary/document.xml',
          false,
        ),
        'word/glossary/document.xml': relationship(
          'rIdRemote',
          'image',
          url('glossary-picture.png'),
        ),
      },
      parts: {
        'word/glossary/document.xml': {
          content: wordPart(
            'glossaryDocument',
            `<w:docParts><w:docPart><w:docPartBody>${pictureWithBlip('r:link="rIdRemote"')}</w:docPartBody></w:docPart></w:docParts>`,
          ),
          contentType: `${WORDML_TYPE}.document.glossary+xml`,
        },
      },
    }),
  'external relationship of a custom XML part': (url) =>
    makeDocx(text, {
      relationships: {
        'word/document.xml': relationship(
          'rIdCustom',
          'customXml',
          '../customXml/item1.xml',
          false,
        ),
        'customXml/item1.xml': relationship('rIdRemote', 'image', url('custom-xml.png')),
      },
      parts: { 'customXml/item1.xml': { content: '<?xml version="1.0"?><data/>' } },
    }),
  'linked OLE object': (url) =>
    makeDocx(
      `${text}<w:p><w:r><w:object><v:shape id="ole1" style="width:48pt;height:48pt"><v:imagedata r:id="rIdImg0"/></v:shape><o:OLEObject Type="Link" ProgID="Word.Document.12" ShapeID="ole1" DrawAspect="Content" r:id="rIdRemote" UpdateMode="Always"><o:LinkType>EnhancedMetaFile</o:LinkType></o:OLEObject></w:object></w:r></w:p>`,
      {
        media: [preview],
        relationships: {
          'word/document.xml': relationship('rIdRemote', 'oleObject', url('linked-ole.docx')),
        },
      },
    ),
  'attached template (settings.xml.rels)': (url) =>
    withSettings(
      '<w:attachedTemplate r:id="rIdRemote"/>',
      relationship('rIdRemote', 'attachedTemplate', url('template.dotx')),
    ),
  'mail merge data source (settings.xml.rels)': (url) =>
    withSettings(
      '<w:mailMerge><w:mainDocumentType w:val="formLetters"/><w:dataType w:val="native"/><w:query w:val="SELECT * FROM data"/><w:dataSource r:id="rIdRemote"/></w:mailMerge>',
      relationship('rIdRemote', 'mailMergeSource', url('merge-data.csv')),
    ),
  subdocument: (url) =>
    makeDocx(`${text}<w:p><w:subDoc r:id="rIdRemote"/></w:p>`, {
      relationships: {
        'word/document.xml': relationship('rIdRemote', 'subDocument', url('subdocument.docx')),
      },
    }),
  'frame (webSettings.xml.rels)': (url) =>
    makeDocx(text, {
      relationships: {
        'word/document.xml': relationship('rIdWeb', 'webSettings', 'webSettings.xml', false),
        'word/webSettings.xml': relationship('rIdRemote', 'frame', url('frame.docx')),
      },
      parts: {
        'word/webSettings.xml': {
          content: wordPart(
            'webSettings',
            '<w:frameset><w:frame><w:name w:val="left"/><w:sourceFileName r:id="rIdRemote"/></w:frame></w:frameset>',
          ),
          contentType: `${WORDML_TYPE}.webSettings+xml`,
        },
      },
    }),
  'external alternative-format chunk (altChunk)': (url) =>
    makeDocx(`${text}<w:altChunk r:id="rIdRemote"/>`, {
      relationships: {
        'word/document.xml': relationship('rIdRemote', 'aFChunk', url('chunk.html')),
      },
    }),
  'embedded Word document (altChunk) holding a linked picture': (url) =>
    makeDocx(`${text}<w:altChunk r:id="rIdChunk"/>`, {
      relationships: {
        'word/document.xml': relationship('rIdChunk', 'aFChunk', 'chunk.docx', false),
      },
      parts: {
        'word/chunk.docx': {
          content: makeDocx(pictureWithBlip('r:link="rIdRemote"'), {
            relationships: {
              'word/document.xml': relationship('rIdRemote', 'image', url('chunk-picture.png')),
            },
          }),
          contentType: `${WORDML_TYPE}.document`,
        },
      },
    }),
  'embedded OLE package holding a linked picture': (url) =>
    makeDocx(
      `${text}<w:p><w:r><w:object><v:shape id="ole1" style="width:48pt;height:48pt"><v:imagedata r:id="rIdImg0"/></v:shape><o:OLEObject Type="Embed" ProgID="Word.Document.12" ShapeID="ole1" DrawAspect="Content" r:id="rIdPackage"/></w:object></w:r></w:p>`,
      {
        media: [preview],
        relationships: {
          'word/document.xml': relationship(
            'rIdPackage',
            'package',
            'embeddings/inner.docx',
            false,
          ),
        },
        parts: {
          'word/embeddings/inner.docx': {
            content: makeDocx(pictureWithBlip('r:link="rIdRemote"'), {
              relationships: {
                'word/document.xml': relationship('rIdRemote', 'image', url('ole-picture.png')),
              },
            }),
            contentType: `${WORDML_TYPE}.document`,
          },
        },
      },
    ),
  ...Object.fromEntries(
    Object.entries(FETCHING_FIELDS).flatMap(([name, instruction]) => [
      [
        `${name} field (w:instrText)`,
        (url: ListenerUrl) =>
          makeDocx(text + complexField(instruction(url(`${name.toLowerCase()}-field`)))),
      ],
      [
        `${name} field (w:fldSimple)`,
        (url: ListenerUrl) =>
          makeDocx(text + simpleField(instruction(url(`${name.toLowerCase()}-simple`)))),
      ],
    ]),
  ),
  'INCLUDEPICTURE field split over runs, in lower case': (url) =>
    makeDocx(
      `${text}<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>include</w:instrText></w:r><w:r><w:instrText xml:space="preserve">picture "${url('split-field.png')}"</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>cached result</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`,
    ),
};

/** An ordinary external hyperlink: shown as a link in the PDF, never fetched. */
export function makeDocxWithHyperlink(target: string): Uint8Array {
  return makeDocx(
    `${text}<w:p><w:hyperlink r:id="rIdLink"><w:r><w:t>Transcript online</w:t></w:r></w:hyperlink></w:p>`,
    { relationships: { 'word/document.xml': relationship('rIdLink', 'hyperlink', target) } },
  );
}

/** The package with one part replaced or added, e.g. a hostile _rels/.rels. */
export function withPart(docx: Uint8Array, name: string, content: string | Uint8Array): Uint8Array {
  const files = unzipSync(docx);
  files[name] =
    typeof content === 'string' ? new TextEncoder().encode(content) : new Uint8Array(content);
  return zipSync(files);
}

/** Markup that makes a backtracking regular expression scan to the end from every tag. */
export const UNCLOSED_MARKUP = {
  fieldStarts: '<w:fldSimple w:instr="PAGE" '.repeat(12_000),
  paragraphs: '<w:p><w:r><w:t>x'.repeat(12_000),
  paragraphProperties: '<w:p><w:pPr><w:tabs>'.repeat(10_000),
  relationships: '<Relationship Type="x/officeDocument" '.repeat(10_000),
} as const;

/**
 * Seeds for property tests of DOCX readers: ordinary documents, bombs, packages of hostile markup
 * and every hostile case above.
 */
export function docxFuzzSeeds(): Uint8Array[] {
  const url = (name: string) => `http://remote.invalid/${name}`;
  const sample = makeSampleDocx();
  return [
    sample,
    makeFivePageDocx(),
    makeDocx(docxXml.paragraph('Statement'), {
      headerXml: docxXml.paragraph('Alex Doe'),
      footerXml: docxXml.paragraph('Page'),
    }),
    makeDocxWithHyperlink(url('transcript')),
    makeZipBombDocx(),
    makeManyEntriesDocx(1200),
    withPart(sample, '_rels/.rels', UNCLOSED_MARKUP.relationships),
    withPart(sample, 'word/_rels/document.xml.rels', UNCLOSED_MARKUP.relationships),
    withPart(sample, 'word/document.xml', UNCLOSED_MARKUP.paragraphProperties),
    withPart(sample, '[Content_Types].xml', 'application/vnd.'.repeat(20_000)),
    ...Object.values(HOSTILE_DOCX).map((make) => make(url)),
  ];
}
