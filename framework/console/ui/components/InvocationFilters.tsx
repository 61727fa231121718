/** The invocation list's filters: function, partition, outcome and key substring (`/` focuses it). */
import type { Ref } from 'preact';
import { OUTCOMES, type InvocationFilter } from '../lib/invocations.ts';

interface Props {
  filter: InvocationFilter;
  functions: string[];
  onChange: (filter: InvocationFilter) => void;
  keyInput: Ref<HTMLInputElement>;
}

export function InvocationFilters({ filter, functions, onChange, keyInput }: Props) {
  const set = (patch: Partial<InvocationFilter>): void => onChange({ ...filter, ...patch });
  return (
    <form class="filters" role="search" aria-label="Filter invocations" onSubmit={(e) => e.preventDefault()}>
      <label>
        <span>Function</span>
        <select data-testid="filter-function" value={filter.function} onChange={(e) => set({ function: e.currentTarget.value })}>
          <option value="">all</option>
          {functions.map((fn) => (
            <option key={fn} value={fn}>
              {fn}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Partition</span>
        <input
          data-testid="filter-partition"
          type="number"
          min={0}
          inputMode="numeric"
          class="narrow"
          value={filter.partition}
          placeholder="any"
          onInput={(e) => set({ partition: e.currentTarget.value })}
        />
      </label>
      <label>
        <span>Outcome</span>
        <select
          data-testid="filter-outcome"
          value={filter.outcome}
          onChange={(e) => set({ outcome: e.currentTarget.value as InvocationFilter['outcome'] })}
        >
          <option value="">all</option>
          {OUTCOMES.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>
          <span title="Matched against every key of each invocation whose records the console still holds (the list shows the first five)">Key contains</span> <kbd title="press / to focus">/</kbd>
        </span>
        <input
          data-testid="filter-key"
          type="search"
          ref={keyInput}
          value={filter.key}
          placeholder="substring of a key"
          onInput={(e) => set({ key: e.currentTarget.value })}
        />
      </label>
    </form>
  );
}
