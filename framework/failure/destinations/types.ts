import type { FailedRecord } from '../failed-record.ts';

/** Somewhere records go that the failure policy gave up on. `send` throws when it is down. */
export interface DestinationSender {
  readonly uri: string;
  /** `signal` aborts the send when the poller stops waiting for it (Delivery bounds every send). */
  send(records: FailedRecord[], signal?: AbortSignal): Promise<void>;
  close(): Promise<void>;
}
