// Ray version comparison for the field gates ("2.58.0", "2.9", "3.0.0.dev0").
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => (/^(\d+)\.(\d+)(?:\.(\d+))?/.exec(v.trim()) ?? []).slice(1, 4).map((x) => Number(x ?? 0));
  const pa = parse(a);
  const pb = parse(b);
  for (let i = 0; i < 3; i += 1) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}
