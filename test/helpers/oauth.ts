/**
 * An OAuth "browser" for tests (issue 31): follows the authorization server's redirects with a
 * cookie jar (paths honoured, as the library scopes its interaction cookies), as a person's browser
 * does, and stops at a page (the consent page) or at the client's redirect URI.
 */
import assert from 'node:assert/strict';

interface Cookie {
  name: string;
  value: string;
  path: string;
}

export class OauthBrowser {
  private readonly cookies: Cookie[] = [];

  constructor(
    private readonly origin: string,
    initial: string[] = [],
  ) {
    for (const header of initial) this.remember(header, '/');
  }

  private remember(header: string, requestPath: string): void {
    const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
    const at = pair.indexOf('=');
    const name = pair.slice(0, at);
    const value = pair.slice(at + 1);
    const path =
      attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ??
      requestPath.slice(0, requestPath.lastIndexOf('/') + 1);
    const expired = attributes.some((a) => /^max-age=0$/i.test(a) || /^expires=Thu, 01 Jan 1970/i.test(a));
    const index = this.cookies.findIndex((c) => c.name === name && c.path === path);
    if (index >= 0) this.cookies.splice(index, 1);
    if (!expired && value !== '') this.cookies.push({ name, value, path });
  }

  private cookieHeader(path: string): string {
    return this.cookies
      .filter((c) => path === c.path || path.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  /** One request, no redirects followed. */
  async request(url: string, init: { method?: string; form?: Record<string, string | string[]> } = {}) {
    const target = new URL(url, this.origin);
    const body = init.form
      ? new URLSearchParams(
          Object.entries(init.form).flatMap(([k, v]): [string, string][] =>
            Array.isArray(v) ? v.map((x): [string, string] => [k, x]) : [[k, v]],
          ),
        ).toString()
      : undefined;
    const response = await fetch(target, {
      method: init.method ?? (body ? 'POST' : 'GET'),
      redirect: 'manual',
      headers: {
        cookie: this.cookieHeader(target.pathname),
        'accept-language': 'en',
        ...(body && { 'content-type': 'application/x-www-form-urlencoded', origin: this.origin }),
      },
      body,
    });
    for (const header of response.headers.getSetCookie()) this.remember(header, target.pathname);
    return { status: response.status, location: response.headers.get('location'), text: await response.text() };
  }

  /**
   * Follows redirects from `url` until a page answers (2xx/4xx) or a redirect leaves the site (the
   * client's redirect URI): that URL, or the page.
   */
  async follow(url: string, init: { form?: Record<string, string | string[]> } = {}) {
    let answer = await this.request(url, init);
    for (let hops = 0; hops < 10; hops++) {
      if (answer.status < 300 || answer.status >= 400 || !answer.location) return { ...answer, left: undefined };
      const next = new URL(answer.location, this.origin);
      if (next.origin !== this.origin) return { ...answer, left: next };
      answer = await this.request(next.toString());
    }
    assert.fail(`more than 10 redirects from ${url}`);
  }
}

/** The CSRF token of a page's form. */
export const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
