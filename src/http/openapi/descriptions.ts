import { type Json, type OpenApiObject, type Operation, operationsOf, type Tag } from './types.js';

/**
 * Descriptions: a sandbox twin's copy of its real operation's description becomes a pointer
 * (pointTwins), paragraphs several operations repeat move to a tag's description (moveSharedParagraphs),
 * a request body's copy of its schema's description goes (dropBodyDescriptionCopies), and
 * restoreDescriptions puts them all back.
 */

/** Paragraphs of a Markdown description: the text between blank lines. */
const PARAGRAPH_BREAK = '\n\n';
const paragraphsOf = (text: string) => text.split(PARAGRAPH_BREAK);

/** A run of paragraphs shorter than this stays where it is: a pointer would save too little. */
export const MIN_SHARED_CHARS = 200;

/** What a twin says instead of the copy of its real operation's description. */
const twinPointer = (operationId: string, method: string, path: string) =>
  `The rest is as described at ${operationId} (${method.toUpperCase()} ${path}).`;
const TWIN_POINTER = /^The rest is as described at ([A-Za-z0-9_]+) \((\w+) (\S+)\)\.$/;

/** What an operation says instead of a run of paragraphs written in a tag's description. */
const sectionPointer = (title: string, tag: string) => `See “${title}” in the ${tag} section.`;
const SECTION_POINTER = /^See “(.+)” in the (.+) section\.$/;

/** The heading a moved run of paragraphs gets in its tag's description. */
const sectionHeading = (title: string) => `### ${title}`;
const SECTION_HEADING = /^### (.+)$/;

/**
 * A sandbox twin whose description is its real operation's, after a paragraph of its own that
 * names that operation, keeps its own paragraph and points at the operation for the rest: the
 * twin answers the same, so the pointer loses nothing.
 */
export function pointTwins(doc: OpenApiObject): void {
  const byDescription = new Map<string, [string, string, Operation]>();
  for (const [path, method, operation] of operationsOf(doc)) {
    if (operation.description && operation.operationId) {
      byDescription.set(operation.description, [path, method, operation]);
    }
  }
  for (const [, , twin] of operationsOf(doc)) {
    const description = twin.description ?? '';
    const cut = description.indexOf(PARAGRAPH_BREAK);
    if (cut < 0) continue;
    const own = description.slice(0, cut);
    const real = byDescription.get(description.slice(cut + PARAGRAPH_BREAK.length));
    if (!real || real[2] === twin) continue;
    const [path, method, operation] = real;
    const operationId = operation.operationId ?? '';
    if (!new RegExp(`\\b${operationId}\\b`).test(own)) continue;
    twin.description = `${own}${PARAGRAPH_BREAK}${twinPointer(operationId, method, path)}`;
  }
}

/** A name for a run of paragraphs: its first words up to a parenthesis, colon or full stop. */
function titleOf(paragraphs: string[]): string {
  const lead = (paragraphs[0] ?? '').replace(/\*\*/g, '');
  const phrase = /^[^(:.\n|]+/.exec(lead)?.[0].trim() ?? '';
  if (phrase.length >= 3 && phrase.length <= 40) return phrase;
  return /^[\p{L}\p{N}-]+/u.exec(lead)?.[0] ?? 'Shared text';
}

/**
 * Writes once what several operations repeat: a run of consecutive paragraphs that the same
 * operations (two or more) all have, word for word, of at least MIN_SHARED_CHARS. It goes under a
 * heading at the end of the description of the tag most of those operations carry (ties: the
 * first in the document's tags), and each operation says where instead.
 */
export function moveSharedParagraphs(doc: OpenApiObject): void {
  const tags = doc.tags ?? [];
  const operations = [...operationsOf(doc)].map(([, , operation]) => operation).filter((o) => o.description);
  const holders = new Map<string, Set<Operation>>();
  for (const operation of operations) {
    for (const paragraph of paragraphsOf(operation.description ?? '')) {
      const set = holders.get(paragraph) ?? new Set();
      set.add(operation);
      holders.set(paragraph, set);
    }
  }
  const holdersKey = (paragraph: string) =>
    operations
      .map((o, i) => (holders.get(paragraph)?.has(o) ? i : -1))
      .filter((i) => i >= 0)
      .join(',');

  // Each operation's runs: consecutive paragraphs held by the same two or more operations.
  const runs = new Map<string, { paragraphs: string[]; at: Operation[] }>();
  const runsOf = new Map<Operation, { start: number; end: number; key: string }[]>();
  for (const operation of operations) {
    const paragraphs = paragraphsOf(operation.description ?? '');
    const found: { start: number; end: number; key: string }[] = [];
    for (let start = 0; start < paragraphs.length; ) {
      const key = holdersKey(paragraphs[start] ?? '');
      let end = start + 1;
      while (end < paragraphs.length && holdersKey(paragraphs[end] ?? '') === key) end++;
      if ((holders.get(paragraphs[start] ?? '')?.size ?? 0) > 1) {
        const run = paragraphs.slice(start, end);
        const text = run.join(PARAGRAPH_BREAK);
        const entry = runs.get(text) ?? { paragraphs: run, at: [] };
        entry.at.push(operation);
        runs.set(text, entry);
        found.push({ start, end, key: text });
      }
      start = end;
    }
    runsOf.set(operation, found);
  }

  const pointers = new Map<string, string>();
  const titles = new Set<string>();
  for (const [text, { paragraphs, at }] of runs) {
    if (at.length < 2 || text.length < MIN_SHARED_CHARS) continue;
    const count = new Map<string, number>();
    for (const operation of at) for (const tag of operation.tags ?? []) count.set(tag, (count.get(tag) ?? 0) + 1);
    let home: Tag | undefined;
    for (const tag of tags) if ((count.get(tag.name) ?? 0) > (home ? (count.get(home.name) ?? 0) : 0)) home = tag;
    if (!home) continue;
    let title = titleOf(paragraphs);
    for (let n = 2; titles.has(title); n++) title = `${titleOf(paragraphs)} (${n})`;
    titles.add(title);
    home.description = [home.description ?? '', sectionHeading(title), text].filter(Boolean).join(PARAGRAPH_BREAK);
    pointers.set(text, sectionPointer(title, home.name));
  }

  for (const operation of operations) {
    const paragraphs = paragraphsOf(operation.description ?? '');
    const found = (runsOf.get(operation) ?? []).filter((run) => pointers.has(run.key));
    if (found.length === 0) continue;
    for (const { start, end, key } of found.reverse()) {
      paragraphs.splice(start, end - start, pointers.get(key) ?? '');
    }
    operation.description = paragraphs.join(PARAGRAPH_BREAK);
  }
}

/** The media types of a request body, with their schemas. */
const bodyMediaOf = (operation: Operation) =>
  Object.values(((operation.requestBody as Json | undefined)?.content ?? {}) as Record<string, Json>);

/**
 * @fastify/swagger copies the description of a body schema into the request body beside it; the
 * copy goes (the body schema keeps the description, and the UIs show it there).
 */
export function dropBodyDescriptionCopies(doc: OpenApiObject): void {
  for (const [, , operation] of operationsOf(doc)) {
    const body = operation.requestBody as Json | undefined;
    const media = bodyMediaOf(operation);
    if (body?.description === undefined || media.length === 0) continue;
    if (media.every((m) => (m.schema as Json | undefined)?.description === body.description)) delete body.description;
  }
}

/** Puts back what dropBodyDescriptionCopies, moveSharedParagraphs and pointTwins took out: the descriptions as generated. */
export function restoreDescriptions(doc: OpenApiObject): void {
  const sections = new Map<string, string>();
  const tagOf = new Map<string, Tag>();
  for (const tag of doc.tags ?? []) {
    tagOf.set(tag.name, tag);
    const paragraphs = paragraphsOf(tag.description ?? '');
    const first = paragraphs.findIndex((p) => SECTION_HEADING.test(p));
    if (first < 0) continue;
    let title = '';
    for (const paragraph of paragraphs.slice(first)) {
      const heading = SECTION_HEADING.exec(paragraph);
      if (heading) title = heading[1] ?? '';
      else {
        const key = `${tag.name}\u0000${title}`;
        sections.set(key, sections.has(key) ? `${sections.get(key)}${PARAGRAPH_BREAK}${paragraph}` : paragraph);
      }
    }
    if (first === 0) delete tag.description;
    else tag.description = paragraphs.slice(0, first).join(PARAGRAPH_BREAK);
  }
  const all = [...operationsOf(doc)];
  for (const [, , operation] of all) {
    const body = operation.requestBody as Json | undefined;
    const description = (bodyMediaOf(operation)[0]?.schema as Json | undefined)?.description;
    if (body && body.description === undefined && description !== undefined) body.description = description;
  }
  for (const [, , operation] of all) {
    if (!operation.description) continue;
    operation.description = paragraphsOf(operation.description)
      .map((paragraph) => {
        const pointer = SECTION_POINTER.exec(paragraph);
        const text = pointer && tagOf.has(pointer[2] ?? '') && sections.get(`${pointer[2]}\u0000${pointer[1]}`);
        return text || paragraph;
      })
      .join(PARAGRAPH_BREAK);
  }
  for (const [, , twin] of all) {
    const paragraphs = paragraphsOf(twin.description ?? '');
    const pointer = TWIN_POINTER.exec(paragraphs.at(-1) ?? '');
    const real = pointer && doc.paths?.[pointer[3] ?? '']?.[pointer[2]?.toLowerCase() ?? ''];
    if (!real || real.operationId !== pointer[1] || real.description === undefined) continue;
    twin.description = [...paragraphs.slice(0, -1), real.description].join(PARAGRAPH_BREAK);
  }
}
