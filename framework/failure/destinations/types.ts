import type { FailedRecord } from '../failed-record.ts';

/** Somewhere records go that the failure policy gave up on. `send` throws when it is down. */
export interface DestinationSender {
  readonly uri: string;
  send(records: FailedRecord[]): Promise<void>;
  close(): Promise<void>;
}
