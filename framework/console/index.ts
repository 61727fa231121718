/**
 * The console of a running service (DESIGN §2.9): its state and history listen to the poller's
 * events and invocations, its routes answer on the poller's own HTTP server. service-runner.ts
 * makes one when the console is on; the pollers then get `invoker`, which records into the history.
 */
import type { TriggerSpec } from '../config/types.ts';
import type { Invoker } from '../invoke/types.ts';
import type { Instrumentation } from '../observe/events.ts';
import type { HealthTracker } from '../observe/health.ts';
import type { Logger } from '../observe/logger.ts';
import type { ProgressTracker } from '../observe/progress.ts';
import { consoleActions, type ConsoleCluster } from './actions.ts';
import type { ConsoleMode } from './api-types.ts';
import { ConsoleState } from './console-state.ts';
import type { InvocationHistory } from './history.ts';
import { recordingInvoker } from './recording-invoker.ts';
import { consoleServer, type ConsoleServer } from './server.ts';

export interface ConsoleSettings {
  mode: ConsoleMode;
  /** Made before the invoker, whose log tap writes into it (run-local.ts). */
  history: InvocationHistory;
  service: string;
  stage: string;
  /** Host names accepted besides IP addresses and localhost (SLUICE_CONSOLE_HOSTS). */
  hosts?: string[];
}

export interface ServiceConsole {
  invoker: Invoker;
  routes: ConsoleServer;
  close(): Promise<void>;
}

export function startConsole(o: {
  settings: ConsoleSettings; triggers: TriggerSpec[]; events: Instrumentation; health: HealthTracker; progress: ProgressTracker; invoker: Invoker;
  clusterOf(t: TriggerSpec): ConsoleCluster; logger: Logger;
}): ServiceConsole {
  const { settings, events } = o;
  const state = new ConsoleState({ service: settings.service, stage: settings.stage, mode: settings.mode, historySize: settings.history.limits.size,
    unlisted: () => settings.history.unlistedCounts(), eventsPerSecond: settings.history.limits.eventsPerSecond, triggers: o.triggers, events, health: o.health, progress: o.progress });
  // The event itself carries what annotate reads (attempt, reportedFailedFrom, malformedResponse): no copy of it per chunk.
  const offChunk = events.on('poller.chunk_end', (c) => settings.history.annotate(c.requestId, c));
  const invoker = recordingInvoker(o.invoker, settings.history);
  const actions = consoleActions({ triggers: o.triggers, clusterOf: o.clusterOf, replay: (r) => invoker.replay(r), state, logger: o.logger.child('console') });
  const routes = consoleServer({
    title: `Sluice · ${settings.service} (${settings.stage})`, state, history: settings.history, actions, readOnly: settings.mode === 'read-only', ...(settings.hosts ? { hosts: settings.hosts } : {}),
  });
  return {
    invoker,
    routes,
    async close() {
      routes.close();
      offChunk();
      state.close();
      await actions.close();
    },
  };
}
