/**
 * Text with the passwords of any URLs in it masked (`user:***@host`, `?password=***`), also in
 * URLs too malformed to parse: what configuration errors and command messages may show.
 */
export function maskUrlPasswords(text: string): string {
  return text.replace(/:(?!\/)[^:@\s]*@/g, ':***@').replace(/([?&]password=)[^&#\s]*/gi, '$1***');
}
