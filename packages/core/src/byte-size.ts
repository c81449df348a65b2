/** 1536 -> "1.5 KiB": sizes as PostgreSQL and object stores report them, in binary units. */
export function byteSize(n: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${Math.round(value)} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}
