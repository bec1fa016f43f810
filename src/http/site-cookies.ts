/**
 * The cookies of the site's pages (docs/accounts.md): the session, the pending code's challenge,
 * the language, the CSRF secret, and the page to return to after signing in. Read by the sign-in
 * pages and by the authorization server, whose login is the site's session.
 */
export const COOKIES = {
  session: 'kmp_session',
  challenge: 'kmp_sign_in',
  language: 'kmp_lang',
  csrf: 'kmp_csrf',
  next: 'kmp_next',
};
