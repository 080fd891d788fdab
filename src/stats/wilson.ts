/**
 * Wilson score interval for a proportion k/n (95% by default). Unlike the normal approximation it
 * stays inside [0, 1] and is honest at k = 0 or k = n, which small demo runs hit all the time.
 */
export function wilsonInterval(
  k: number,
  n: number,
  z = 1.959964,
): { low: number; high: number } | undefined {
  if (n <= 0) return undefined;
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
