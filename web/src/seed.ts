// Seeds: what a link may carry, and the seed Generate is sent.

/** Seeds are uint64 on the wire. */
export const MAX_SEED = 2n ** 64n - 1n;
const MASK = MAX_SEED;

/** A seed from a URL: a decimal whole number from 0 to 2^64-1, else null. */
export function parseSeed(text: string | null): bigint | null {
  if (text === null || !/^\d{1,20}$/.test(text)) return null;
  const seed = BigInt(text);
  return seed <= MAX_SEED ? seed : null;
}

/** SplitMix64's finaliser: every bit of the input moves every bit of the
 * output. */
function mix64(z: bigint): bigint {
  z = (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n & MASK;
  z = (z ^ (z >> 27n)) * 0x94d049bb133111ebn & MASK;
  return z ^ (z >> 31n);
}

/**
 * The seed sent to Generate for a link's seed and level (0 for any level):
 * a 64-bit mix of both, so that each level gets its own solution grid
 * from the same link seed, and the same link always gives the same
 * puzzle. Never 0, which would ask the server for a random one.
 */
export function generateSeed(seed: bigint, level: number): bigint {
  const mixed = mix64((seed + BigInt(level + 1) * 0x9e3779b97f4a7c15n) & MASK);
  return mixed === 0n ? 1n : mixed;
}

/** A fresh random link seed. */
export function randomSeed(): bigint {
  const words = new Uint32Array(2);
  crypto.getRandomValues(words);
  return (BigInt(words[0]) << 32n) | BigInt(words[1]);
}
