import type { Json, OpenApiObject } from './types.js';

/**
 * Long descriptions, the last step of compactDocument (compact.ts): a description longer than
 * MAX_INLINE_CHARS keeps its first sentence in the document and ends with a link to the whole text
 * on a page served beside it (DESCRIPTIONS_PAGE, plugins/docs.ts), under an anchor named after
 * where it was: the operationId, the tag, the schema or response (parameters stay whole: the MCP
 * tools quote them, and test/mcp/mcp.test.ts compares the two; response headers stay whole: the
 * budget's is the one declaration of RateLimit-Policy and X-RateLimit-*). The schemas of
 * FIELD_LISTS (the account export) describe their fields on the page too, one list per section.
 * So the document stays small enough for an agent to read whole, and nothing is lost: restoreProse
 * writes the texts back from the page (test/http/openapi-size.test.ts), and compactDocument checks
 * that it does.
 */

/** Where the whole texts are served (plugins/docs.ts, in the documents' scope). */
export const DESCRIPTIONS_PAGE = '/docs/descriptions.md';

/** A description up to this long stays whole. */
export const MAX_INLINE_CHARS = 120;

/** The most of a description's first sentence the document keeps (cut at a word, with …). */
const MAX_LEAD_CHARS = 100;

const link = (anchor: string) => ` [More](${DESCRIPTIONS_PAGE}#${anchor})`;
const LINK = /^([\s\S]*) \[More\]\(\/docs\/descriptions\.md#([A-Za-z0-9._-]+)\)$/;

/** A heading of the page: the anchor, then what it is about. */
const heading = (anchor: string, title: string) => `## <a id="${anchor}"></a>${title}`;
const HEADING = /^## <a id="([A-Za-z0-9._-]+)"><\/a>/;

/** The whole texts a document's links point at: anchor, what it describes, and the text. */
export type Prose = Map<string, { title: string; text: string }>;

/** Keywords whose values are data, not schemas or objects of the document: their fields stay as they are. */
const DATA_KEYWORDS = new Set(['example', 'examples', 'default', 'const', 'enum']);

/** The first sentence of a text, at most MAX_LEAD_CHARS (then cut at a word, with …). */
function leadOf(text: string): string {
  const paragraph = text.split('\n\n')[0] ?? '';
  const sentence = /^[\s\S]*?[.!?](?=\s+[A-Z`(]|$)/.exec(paragraph)?.[0] ?? paragraph;
  if (sentence.length <= MAX_LEAD_CHARS && !sentence.includes('\n')) return sentence;
  const cut = sentence.slice(0, MAX_LEAD_CHARS).split('\n')[0] ?? '';
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 40)).replace(/[\s,;:(]+$/, '')}…`;
}

const slug = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');

/** Each description slot of the document, with the anchor and title its text would get. */
function* descriptionSlots(doc: OpenApiObject): Generator<{ holder: Json; anchor: string; title: string }> {
  const walk = function* (
    node: unknown,
    anchor: string,
    title: string,
  ): Generator<{ holder: Json; anchor: string; title: string }> {
    if (Array.isArray(node)) {
      for (const item of node) yield* walk(item, anchor, title);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const object = node as Json;
    if (typeof object.description === 'string') yield { holder: object, anchor, title };
    for (const [key, value] of Object.entries(object)) {
      // Parameters stay whole: the MCP tools quote them, and they are short.
      const skipped = key === 'description' || key === 'parameters' || DATA_KEYWORDS.has(key);
      if (skipped || value === null || typeof value !== 'object') continue;
      // Words a reader would look for: properties and parameters by name, not the schema's plumbing.
      const skip = ['properties', 'content', 'schema', 'application/json', 'responses', 'requestBody'];
      const part = skip.includes(key) ? '' : key;
      yield* walk(value, part ? `${anchor}.${slug(part)}` : anchor, part ? `${title} ${part}` : title);
    }
  };
  if (doc.info) yield* walk(doc.info, 'introduction', 'Introduction');
  for (const tag of doc.tags ?? []) yield* walk(tag, `tag.${slug(tag.name)}`, `The ${tag.name} section`);
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      const id = operation.operationId ?? `${method}${slug(path)}`;
      yield* walk(operation, id, `${id} (${method.toUpperCase()} ${path})`);
    }
  }
  for (const [kind, entries] of Object.entries(doc.components ?? {})) {
    if (['securitySchemes', 'parameters', 'headers'].includes(kind) || entries === null || typeof entries !== 'object')
      continue;
    for (const [name, entry] of Object.entries(entries as Json)) {
      yield* walk(entry, slug(name), `${name} (components.${kind})`);
    }
  }
}

/**
 * Shortens every description longer than MAX_INLINE_CHARS to its first sentence and a link, and
 * answers the whole texts under their anchors (the page: descriptionsPage).
 */
export function moveLongProse(doc: OpenApiObject): Prose {
  const prose = moveFieldLists(doc);
  for (const { holder, anchor: base, title } of descriptionSlots(doc)) {
    const text = holder.description as string;
    if (text.length <= MAX_INLINE_CHARS || text !== text.trim() || text.split('\n').some((l) => HEADING.test(l))) {
      continue;
    }
    if (FIELDS_LINK.test(text) || LINK.test(text)) continue;
    let anchor = base;
    for (let n = 2; prose.has(anchor); n++) anchor = `${base}-${n}`;
    const short = `${leadOf(text)}${link(anchor)}`;
    if (short.length + 40 >= text.length) continue;
    prose.set(anchor, { title, text });
    SEEN.set(short, text);
    holder.description = short;
  }
  return prose;
}

/**
 * The schemas of components.schemas whose sections' fields are described on the page, one list per
 * section, instead of in the document: the account export's ~200 stored fields (GDPR Art. 15 asks
 * for them all), which a client reads as data rather than calls. Each section keeps its own
 * description, which links to the list.
 */
export const FIELD_LISTS: readonly string[] = ['AccountExport'];

const fieldsLink = (anchor: string) => ` [Fields](${DESCRIPTIONS_PAGE}#${anchor})`;
const FIELDS_LINK = /^([\s\S]*) \[Fields\]\(\/docs\/descriptions\.md#([A-Za-z0-9._-]+)\)$/;

/** One field of a list: `- \`name\`: its description`. */
const FIELD_LINE = /^- `([^`]+)`: (.*)$/;

/** The object whose fields a section holds: the items of a list section, else the section itself. */
const fieldsHolder = (section: Json): Json | undefined => {
  const object = (section.type === 'array' ? section.items : section) as Json | undefined;
  return object?.properties && typeof object.properties === 'object' ? (object.properties as Json) : undefined;
};

/**
 * Moves the fields' descriptions of each section of the FIELD_LISTS schemas to the page, as a
 * list under the anchor <schema>.<section>; the section's description links to it.
 */
function moveFieldLists(doc: OpenApiObject): Prose {
  const prose: Prose = new Map();
  for (const name of FIELD_LISTS) {
    const schema = (doc.components?.schemas as Json | undefined)?.[name] as Json | undefined;
    for (const [key, section] of Object.entries((schema?.properties ?? {}) as Record<string, Json>)) {
      const fields = fieldsHolder(section);
      const described = Object.entries((fields ?? {}) as Record<string, Json>).filter(
        ([, field]) => typeof field.description === 'string' && !(field.description as string).includes('\n'),
      );
      const own = section.description;
      if (described.length === 0 || typeof own !== 'string' || LINK.test(own) || FIELDS_LINK.test(own)) continue;
      const anchor = `${slug(name)}.${slug(key)}`;
      const text = described.map(([field, { description }]) => `- \`${field}\`: ${description}`).join('\n');
      prose.set(anchor, { title: `${name} ${key}: its fields`, text });
      for (const [, field] of described) delete field.description;
      const short = `${own}${fieldsLink(anchor)}`;
      section.description = short;
      SEEN.set(short, text);
    }
  }
  return prose;
}

/** Puts the whole texts back where moveLongProse left a link to them. */
export function restoreProse<T>(doc: T, prose: Prose): T {
  return restoreWith(doc, (_short, anchor) => prose.get(anchor)?.text);
}

/**
 * Every shortened description this process has made, with its whole text: the in-process tests
 * read descriptions written out (test/helpers/openapi.ts) without fetching the page each time. A
 * document made twice alike adds nothing; the last text made for a shortened form wins.
 */
const SEEN = new Map<string, string>();

/** Puts back the whole texts of the descriptions this process shortened (SEEN). */
export function restoreSeenProse<T>(doc: T): T {
  return restoreWith(doc, (short) => SEEN.get(short));
}

function restoreWith<T>(doc: T, textOf: (short: string, anchor: string) => string | undefined): T {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const { description } = node as Json;
    const fields = typeof description === 'string' ? FIELDS_LINK.exec(description) : null;
    const list = fields && textOf(description as string, fields[2] ?? '');
    if (fields && list) {
      // A section of a FIELD_LISTS schema: its own description, and each field's from the list.
      const section = walk({ ...(node as Json), description: fields[1] }) as Json;
      const holder = fieldsHolder(section) as Record<string, Json>;
      for (const line of list.split('\n')) {
        const [, name = '', text] = FIELD_LINE.exec(line) ?? [];
        if (holder[name] && text !== undefined) holder[name] = { ...holder[name], description: text };
      }
      return section;
    }
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => {
        if (key === 'description' && typeof value === 'string') {
          const anchor = LINK.exec(value)?.[2];
          return [key, (anchor !== undefined && textOf(value, anchor)) || value];
        }
        return [key, DATA_KEYWORDS.has(key) ? value : walk(value)];
      }),
    );
  };
  return walk(doc) as T;
}

/** The page the links point at: each whole text under a heading with its anchor. */
export function descriptionsPage(prose: Prose, title: string): string {
  const intro = `# ${title}: the long descriptions\n\nThe OpenAPI document (/v1/openapi.json) keeps each long description to its first sentence and a link here, to the whole text under the anchor the link names: an operation by its operationId (with the fields of its body or answer after a dot), a tag as tag.<name>, the introduction, or a schema or response of components by its name. The sections of the account export list what their fields mean, one field a line, under AccountExport.<section>, linked as [Fields].`;
  const sections = [...prose].map(([anchor, { title: what, text }]) => `${heading(anchor, what)}\n\n${text}`);
  return `${[intro, ...sections].join('\n\n')}\n`;
}

/** The texts of a page descriptionsPage wrote, by anchor (the reverse of descriptionsPage). */
export function proseOfPage(page: string): Prose {
  const prose: Prose = new Map();
  const parts = page.replace(/\n$/, '').split(/\n\n(?=## <a id=")/);
  for (const part of parts.slice(1)) {
    const [first = '', ...rest] = part.split('\n\n');
    const anchor = HEADING.exec(first)?.[1];
    if (anchor) prose.set(anchor, { title: first.replace(HEADING, ''), text: rest.join('\n\n') });
  }
  return prose;
}
