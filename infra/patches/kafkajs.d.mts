export const MARKERS: Record<string, string>;
export function kafkajsDir(from?: string): string;
export function unpatched(dir?: string): string[];
export function applyPatch(dir?: string): string[];
