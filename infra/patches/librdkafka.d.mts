export const MARKER: string;
export const STAMP: string;
export const EDITS: Array<{ file: string; before: string; after: string }>;
export function applyEdits(dir: string): string[];
