/**
 * Pure: what `status` shows for one trigger's consumer group and how it prints. It is `lag`'s
 * report (lag-report.ts) plus the group's protocol, assignor and coordinator, and each partition's
 * owner, all as the brokers answered.
 */
import type { GroupCoordinator } from '../kafka/admin-port.ts';
import { printable } from '../observe/printable.ts';
import { doneColumns, doneHeaders, groupWord, offsetHeader, startNote, table, type TriggerLag } from './lag-report.ts';

export interface TriggerStatus extends TriggerLag {
  coordinator: GroupCoordinator;
  /**
   * parallelizationFactor > 1: invocations running per partition, from the local poller's
   * /metrics, or why it could not be read; absent for other triggers.
   */
  inFlight?: Record<number, number> | { unreachable: string };
}

/** One block per trigger; `at` heads the report (the time it was read, for --watch). */
export function formatStatus(reports: TriggerStatus[], at?: Date): string {
  const blocks = reports.map(formatOne);
  return (at ? [`sluice status at ${at.toISOString()}`, ...blocks] : blocks).join('\n\n');
}

function formatOne(r: TriggerStatus): string {
  const g = r.group;
  const c = r.coordinator;
  // Kafka's own words (kafka-groups.sh --list): a KIP-848 group is of type consumer, any other classic,
  // whose members' protocol type is `consumer` too; "protocol consumer" said the same of both.
  const protocol = g.type === 'share'
    ? `type share (KIP-932, queue mode: every member takes records of every partition it is assigned), assignor ${g.protocol || 'none yet'}`
    : g.type === 'consumer'
      ? `type consumer (KIP-848), assignor ${g.protocol || 'none yet'}`
      : g.protocolType ? `type classic (protocol type ${g.protocolType}), assignor ${g.protocol || 'none yet'}` : 'no protocol (no member)';
  const moving = c.offsetsPartitionLeader === c.nodeId ? '' : ` (the partition's leader is ${c.offsetsPartitionLeader < 0 ? 'none' : `broker ${c.offsetsPartitionLeader}`}: leadership is moving)`;
  const lines = [
    `${r.functionName}: topic ${r.topic}, ${groupWord(r)} ${r.groupId} on ${r.brokers.join(',')}`,
    `  state ${g.state}, ${protocol}`,
    `  coordinator broker ${c.nodeId} at ${c.address}, leader of __consumer_offsets-${c.offsetsPartition} (of ${c.offsetsPartitions})${moving}`,
    `  members ${g.members.length}${g.members.length ? ':' : ''}`,
  ];
  // Members are numbered: the owner column names one by its number (client ids are often shared); a share group's partitions have several.
  const owner = new Map<number, string>();
  for (const [i, m] of g.members.entries()) {
    const owned = [...(m.assignment[r.topic] ?? [])].sort((a, b) => a - b);
    for (const p of owned) owner.set(p, owner.has(p) ? `${owner.get(p)},#${i + 1}` : `#${i + 1}`);
    const p = printable; // member ids, instance ids and client ids are the members' choice
    lines.push(`    #${i + 1} ${p(m.memberId)}${m.groupInstanceId ? `  instance ${p(m.groupInstanceId)}` : ''}  client ${p(m.clientId)}  host ${p(m.clientHost)}  partitions ${owned.length ? owned.join(',') : 'none'}`);
  }
  const counts = r.inFlight && !('unreachable' in r.inFlight) ? (r.inFlight as Record<number, number>) : undefined;
  const rows = r.partitions.map((p) => [
    String(p.partition), p.committed >= 0 ? String(p.committed) : '-', String(p.logEnd), p.lag === null ? '?' : String(p.lag), ...doneColumns(r, p),
    ...(counts ? [String(counts[p.partition] ?? 0)] : []), owner.get(p.partition) ?? '-',
  ]);
  lines.push(...table(['partition', offsetHeader(r), 'log-end', 'lag', ...doneHeaders(r), ...(counts ? ['in-flight'] : []), g.type === 'share' ? 'members' : 'owner'], rows).map((l) => `  ${l}`));
  lines.push(`  total lag ${r.totalLag}`);
  const note = g.type === 'share' ? startNote(r) : undefined;
  if (note) lines.push(note);
  if (r.inFlight && 'unreachable' in r.inFlight) lines.push(`  - invocations in flight not shown: ${r.inFlight.unreachable}`);
  return lines.join('\n');
}
