/**
 * The served OpenAPI document writes what operations share once and points at it
 * (src/http/openapi/compact.ts): parameters, headers, responses and repeated schemas
 * under components, referenced by $ref; paragraphs several operations repeat in a tag's
 * description; a sandbox twin's copy of its real operation's description as a pointer. Tests that
 * read an operation's parameters, responses or description read them through this: the document
 * with every such $ref replaced by what it points at (the route schemas' own $refs stay, as they
 * are served) and every description written out again. components stays as served.
 */
export { resolveShared } from '../../src/http/openapi/compact.js';
