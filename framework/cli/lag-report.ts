/**
 * Pure: what `lag` reports for one trigger's consumer group, and how it prints. Lag is what the
 * group has yet to process: log-end minus committed offset. A partition with no committed offset
 * lags by what the trigger's startingPosition would read: everything still in the log for
 * TRIM_HORIZON, nothing for LATEST, unknown (null) for AT_TIMESTAMP.
 */
import type { StartingPosition } from '../config/types.ts';
import type { GroupMembers, GroupPartitionOffsets } from '../kafka/admin-port.ts';
import { printable } from '../observe/printable.ts';
import { decodeMetadata } from '../parallel/commit-metadata.ts';

/** A partition's offsets, and what its commit's metadata says is done beyond the committed offset. */
export interface CommittedPartition extends Omit<GroupPartitionOffsets, 'metadata'> {
  /** parallelizationFactor > 1: records done beyond the committed offset, and the metadata's length; absent without such metadata. */
  doneBeyond?: { records: number; metadataBytes: number };
}

export interface PartitionLag extends CommittedPartition {
  lag: number | null;
}

/** The partition as `lag` reads it: the commit's metadata decoded into the records it marks done. */
export function withDoneBeyond({ metadata, ...p }: GroupPartitionOffsets): CommittedPartition {
  const done = metadata ? decodeMetadata(metadata, p.committed) : undefined;
  return done?.kind === 'done' ? { ...p, doneBeyond: { records: done.ranges.reduce((n, r) => n + r.until - r.from + 1, 0), metadataBytes: metadata!.length } } : p;
}

export interface TriggerLag {
  functionName: string;
  topic: string;
  groupId: string;
  brokers: string[];
  startingPosition: StartingPosition;
  group: GroupMembers;
  partitions: PartitionLag[];
  /** Sum of the known lags. */
  totalLag: number;
}

/** Records done beyond the committed offset (parallelizationFactor > 1) are not lag. */
export function partitionLag(p: CommittedPartition, startingPosition: StartingPosition): number | null {
  if (p.committed >= 0) return Math.max(0, p.logEnd - p.committed - (p.doneBeyond?.records ?? 0));
  if (startingPosition === 'TRIM_HORIZON') return p.logEnd - p.logStart;
  if (startingPosition === 'LATEST') return 0;
  return null;
}

export function triggerLag(
  t: Omit<TriggerLag, 'partitions' | 'totalLag'>,
  offsets: CommittedPartition[],
): TriggerLag {
  const partitions = offsets.map((p) => ({ ...p, lag: partitionLag(p, t.startingPosition) }));
  return { ...t, partitions, totalLag: partitions.reduce((n, p) => n + (p.lag ?? 0), 0) };
}

/** The human report: one block per trigger, members then a partition table. */
export function formatLag(reports: TriggerLag[]): string {
  return reports.map(formatOne).join('\n\n');
}

function formatOne(r: TriggerLag): string {
  const count = `${r.group.members.length} member${r.group.members.length === 1 ? '' : 's'}`;
  const lines = [`${r.functionName}: topic ${r.topic}, ${groupWord(r)} ${r.groupId} (${r.group.state}, ${count}) on ${r.brokers.join(',')}`];
  for (const m of r.group.members) {
    const owned = m.assignment[r.topic] ?? [];
    const p = printable; // member ids, instance ids and client ids are the members' choice
    lines.push(`  member ${p(m.memberId)} (${m.groupInstanceId ? `instance ${p(m.groupInstanceId)}, ` : ''}client ${p(m.clientId)}, host ${p(m.clientHost)}): partitions ${owned.length ? [...owned].sort((a, b) => a - b).join(',') : 'none'}`);
  }
  const rows = r.partitions.map((p) => [String(p.partition), p.committed >= 0 ? String(p.committed) : '-', String(p.logEnd), p.lag === null ? '?' : String(p.lag), ...doneColumns(r, p)]);
  lines.push(...table(['partition', offsetHeader(r), 'log-end', 'lag', ...doneHeaders(r)], rows).map((l) => `  ${l}`));
  lines.push(`  total lag ${r.totalLag}`);
  const note = startNote(r);
  if (note) lines.push(note);
  return lines.join('\n');
}

const isShare = (r: TriggerLag) => r.group.type === 'share';

/** A queue trigger's group is a share group (KIP-932). */
export const groupWord = (r: TriggerLag): string => (isShare(r) ? 'share group' : 'group');

/**
 * A consumer group's committed offset, or a share group's start offset: every record below it
 * acknowledged for good (and its lag the broker's count of those after it not acknowledged yet).
 */
export const offsetHeader = (r: TriggerLag): string => (isShare(r) ? 'start' : 'committed');

/** Where a group with nothing committed (a share group with no state) begins, when a partition has none. */
export function startNote(r: TriggerLag): string | undefined {
  if (!r.partitions.some((p) => p.committed < 0)) return undefined;
  if (isShare(r)) return `  - no share state yet: the share group starts at the ${r.startingPosition === 'LATEST' ? 'log end' : 'log start'} (startingPosition ${r.startingPosition})`;
  return `  - no committed offset: the group starts at ${r.startingPosition}${r.startingPosition === 'AT_TIMESTAMP' ? ' (lag ? until it commits)' : ''}`;
}

/** Right-aligned numeric columns under their headers. */
export function table(headers: string[], rows: string[][]): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  return [line(headers), ...rows.map(line)];
}

/**
 * With parallelizationFactor > 1 a commit carries the records done beyond it: two more columns,
 * when any partition has such a commit (they are not lag).
 */
export function doneHeaders(r: TriggerLag): string[] {
  return r.partitions.some((p) => p.doneBeyond) ? ['done-beyond', 'metadata'] : [];
}

export function doneColumns(r: TriggerLag, p: PartitionLag): string[] {
  if (!r.partitions.some((x) => x.doneBeyond)) return [];
  return p.doneBeyond ? [String(p.doneBeyond.records), `${p.doneBeyond.metadataBytes} B`] : ['0', '-'];
}
