/**
 * A seeded stream of numbers in [0, 1) for tests that draw random cases: the same seed gives the
 * same cases on every run, so a failure can be replayed.
 */
export function seeded(seed: number) {
  let state = seed;
  const next = (): number => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  return { next, pick, maybe: (probability: number) => next() < probability };
}
