/**
 * A progress bar on stderr: redrawn in place on a terminal, a line per 10 % otherwise (CI logs).
 */
export function progressBar(stream: NodeJS.WriteStream = process.stderr) {
  const lastDecile = new Map<string, number>();
  return (phase: string, done: number, total: number): void => {
    const share = total === 0 ? 1 : done / total;
    if (stream.isTTY) {
      const width = 30;
      const filled = Math.round(share * width);
      stream.write(
        `\r${phase.padEnd(26)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.round(share * 100)).padStart(3)}% ${done}/${total}`,
      );
      if (done >= total) stream.write('\n');
      return;
    }
    const decile = Math.floor(share * 10);
    if (decile !== lastDecile.get(phase)) {
      lastDecile.set(phase, decile);
      stream.write(`${phase}: ${done}/${total} (${decile * 10}%)\n`);
    }
  };
}
