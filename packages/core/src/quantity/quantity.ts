/**
 * Kubernetes resource.Quantity arithmetic, as far as the RayCluster controller needs it: parse, round up to an
 * integer (Go's Quantity.Value), approximate as a float, add, multiply by an integer, and print in Go's canonical
 * form (so status.desiredCPU reads "1600m" and desiredMemory "7Gi", as KubeRay writes them).
 * Values are exact: BigInt nano-units (the smallest scale Kubernetes keeps).
 */

export type QuantityFormat = 'DecimalSI' | 'BinarySI';

export interface Quantity {
  /** The value in units of 10^-9. */
  nanos: bigint;
  /** How the value prints; sums and products keep the format of their first operand, as in Go. */
  format: QuantityFormat;
}

const NANO = 1_000_000_000n;
const BINARY: Record<string, bigint> = { Ki: 1n << 10n, Mi: 1n << 20n, Gi: 1n << 30n, Ti: 1n << 40n, Pi: 1n << 50n, Ei: 1n << 60n };
const DECIMAL_EXPONENT: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const QUANTITY = /^([+-]?)(\d+\.?\d*|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;

export const zeroQuantity = (format: QuantityFormat = 'DecimalSI'): Quantity => ({ nanos: 0n, format });

/** Parses "500m", "4Gi", "1.5", "2e3", or a number; undefined for text Kubernetes would reject. */
export function parseQuantity(input: string | number): Quantity | undefined {
  const match = QUANTITY.exec(String(input).trim());
  if (!match) return undefined;
  const [, sign = '', number = '', suffix = ''] = match;
  const [whole = '', fraction = ''] = number.split('.');
  const digits = BigInt(`${whole || '0'}${fraction}`);
  // digits * 10^-fraction.length, scaled to nanos and then by the suffix.
  let nanos: bigint;
  let format: QuantityFormat = 'DecimalSI';
  const binary = BINARY[suffix];
  if (binary !== undefined) {
    format = 'BinarySI';
    nanos = divideRoundingUp(digits * binary * NANO, 10n ** BigInt(fraction.length));
  } else {
    const exponent = /^[eE]/.test(suffix) ? Number(suffix.slice(1)) : (DECIMAL_EXPONENT[suffix] ?? 0);
    const scale = exponent + 9 - fraction.length;
    nanos = scale >= 0 ? digits * 10n ** BigInt(scale) : divideRoundingUp(digits, 10n ** BigInt(-scale));
  }
  return { nanos: sign === '-' ? -nanos : nanos, format };
}

/** Go's Quantity.Value(): the value rounded up to an integer ("500m" -> 1). */
export function quantityCeil(q: Quantity): bigint {
  return divideRoundingUp(q.nanos, NANO);
}

/** Go's AsApproximateFloat64. */
export function quantityToNumber(q: Quantity): number {
  return Number(q.nanos) / 1e9;
}

export function addQuantities(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos + b.nanos, format: a.format };
}

export function multiplyQuantity(q: Quantity, factor: number): Quantity {
  return { nanos: q.nanos * BigInt(factor), format: q.format };
}

export const isZeroQuantity = (q: Quantity): boolean => q.nanos === 0n;

/** Go's canonical String(): binary suffixes for BinarySI integers of at least 1024, else k/M/G or m/u/n. */
export function formatQuantity(q: Quantity): string {
  if (q.nanos === 0n) return '0';
  const negative = q.nanos < 0n;
  const abs = negative ? -q.nanos : q.nanos;
  const sign = negative ? '-' : '';
  if (q.format === 'BinarySI' && abs >= 1024n * NANO && abs % NANO === 0n) {
    let value = abs / NANO;
    let index = 0;
    const suffixes = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
    while (index < suffixes.length - 1 && value % 1024n === 0n) {
      value /= 1024n;
      index += 1;
    }
    return `${sign}${value}${suffixes[index]}`;
  }
  let mantissa = abs;
  let exponent = -9;
  while (exponent < 18 && mantissa % 1000n === 0n) {
    mantissa /= 1000n;
    exponent += 3;
  }
  const suffix = Object.entries(DECIMAL_EXPONENT).find(([, e]) => e === exponent)?.[0] ?? '';
  return `${sign}${mantissa}${suffix}`;
}

function divideRoundingUp(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return numerator % denominator > 0n ? quotient + 1n : quotient;
}
