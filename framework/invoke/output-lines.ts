/**
 * Pure: whole lines out of text that comes in pieces (what a handler writes to process.stdout or
 * stderr). A piece's ended lines go out at once, without their '\n' (or '\r\n'); the rest waits for
 * its end, or for end(). Each piece is scanned once, so a line written in many pieces (a progress
 * counter rewriting itself with '\r', never a '\n') costs what its pieces do, not their square.
 */
export class OutputLines {
  private rest = '';

  constructor(private readonly onLine: (line: string) => void) {}

  write(text: string): void {
    let from = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
      const line = this.rest + text.slice(from, nl);
      this.rest = '';
      from = nl + 1;
      this.onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
    }
    this.rest += text.slice(from);
  }

  /** The unended rest as a line of its own, if there is one. */
  end(): void {
    if (this.rest === '') return;
    const line = this.rest;
    this.rest = '';
    this.onLine(line);
  }
}
