import { html, type SafeHtml } from './html.js';

/**
 * The shell of the pages shown without signing in (the developer-key form, a draft's confirm page,
 * a notification's unsubscribe page): one document, its language, title and inline style (each
 * page keeps its own, so its Content-Security-Policy and look stay as they are), an optional header
 * before the card, and the card. The pages of signed-in people have theirs in sign-in-pages.ts.
 */
export function pageShell(page: {
  language: string;
  title: string;
  style: SafeHtml;
  /** `noindex`: a page for one person (a draft, an unsubscribe link), never for search engines. */
  noindex: boolean;
  header?: SafeHtml;
  main: SafeHtml;
}): string {
  return html`<!doctype html>
<html lang="${page.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${
  page.noindex &&
  html`<meta name="robots" content="noindex">
`
}<title>${page.title}</title>
<style>${page.style}</style>
</head>
<body>
${
  page.header &&
  html`${page.header}
`
}<main>
${page.main}
</main>
</body>
</html>
`.value;
}
