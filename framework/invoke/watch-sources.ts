/**
 * Watches a set of source files for changes, for hot reload (local.ts). It watches their
 * directories, not the files: editors that save by writing a new file and renaming it over the
 * old one (vim, JetBrains) replace the inode a file watch would follow. Events within `settleMs`
 * are gathered into one call, so a save that writes twice reloads once.
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface SourceWatch {
  /** Watch exactly these files from now on (a rebuild may import new ones). */
  set(files: Iterable<string>): void;
  close(): void;
}

export function watchSources(onChange: (changed: string[]) => void, settleMs = 100): SourceWatch {
  const watchers = new Map<string, FSWatcher>();
  let files = new Set<string>();
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;

  const flush = () => {
    timer = undefined;
    const batch = [...changed];
    changed.clear();
    if (batch.length) onChange(batch);
  };
  const seen = (dir: string, name: string | null) => {
    const file = name ? join(dir, name) : undefined;
    if (!file || !files.has(file)) return;
    changed.add(file);
    clearTimeout(timer);
    timer = setTimeout(flush, settleMs);
  };

  return {
    set(next) {
      files = new Set(next);
      const dirs = new Set([...files].map(dirname));
      for (const [dir, w] of watchers) {
        if (dirs.has(dir)) continue;
        w.close();
        watchers.delete(dir);
      }
      for (const dir of dirs) {
        if (watchers.has(dir)) continue;
        try {
          const w = watch(dir, { persistent: false }, (_event, name) => seen(dir, name === null ? null : basename(String(name))));
          w.on('error', () => undefined); // a directory removed: its files are gone from the next build's inputs
          watchers.set(dir, w);
        } catch {
          // A directory that vanished between the build and now: nothing to watch there.
        }
      }
    },
    close() {
      clearTimeout(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}
