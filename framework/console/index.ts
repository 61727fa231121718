/**
 * The console of a running service (DESIGN §2.9): its state listens to the poller's events, its
 * history and chunks in flight are told of each invocation by its chunk watcher, and its routes
 * answer on the poller's own HTTP server. service-runner.ts makes one when the console is on and
 * hands `watcher` to the pollers.
 */
import type { TriggerSpec } from '../config/types.ts';
import type { Invoker } from '../invoke/types.ts';
import type { ChunkWatcher } from '../poller/chunk-watcher.ts';
import type { Instrumentation } from '../observe/events.ts';
import type { HealthTracker } from '../observe/health.ts';
import type { Logger } from '../observe/logger.ts';
import type { ProgressTracker } from '../observe/progress.ts';
import { consoleActions, type ConsoleCluster } from './actions.ts';
import type { ConsoleMode } from './api-types.ts';
import { ConsoleState } from './console-state.ts';
import type { InvocationHistory } from './history.ts';
import { replayer } from './replayer.ts';
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
  watcher: ChunkWatcher;
  routes: ConsoleServer;
  close(): Promise<void>;
}

export function startConsole(o: {
  settings: ConsoleSettings; triggers: TriggerSpec[]; events: Instrumentation; health: HealthTracker; progress: ProgressTracker; invoker: Invoker;
  clusterOf(t: TriggerSpec): ConsoleCluster; logger: Logger;
}): ServiceConsole {
  const { settings, events } = o;
  const state = new ConsoleState({ service: settings.service, stage: settings.stage, mode: settings.mode, historySize: settings.history.limits.size,
    unlisted: () => settings.history.unlistedCounts(), eventsPerSecond: settings.history.limits.eventsPerSecond,
    listedPerSecond: settings.history.limits.listedPerSecond, triggers: o.triggers, events, health: o.health, progress: o.progress });
  const { history } = settings;
  // Two direct calls per invocation: the chunk in flight and the history's entry, then how it ended
  // (its chunk_end event, which carries the poller's reading of the answer, handed on as it is).
  const watcher: ChunkWatcher = {
    started(chunk, request) {
      state.chunkStarted(chunk);
      history.start(request);
    },
    ended(request, chunk, result) {
      state.chunkEnded(chunk);
      history.ended(request.requestId, result, chunk);
    },
  };
  const actions = consoleActions({ triggers: o.triggers, clusterOf: o.clusterOf, replay: replayer(o.invoker, history), state, logger: o.logger.child('console') });
  const routes = consoleServer({
    title: `Sluice · ${settings.service} (${settings.stage})`, state, history: settings.history, actions, readOnly: settings.mode === 'read-only', ...(settings.hosts ? { hosts: settings.hosts } : {}),
  });
  return {
    watcher,
    routes,
    async close() {
      routes.close();
      state.close();
      await actions.close();
    },
  };
}
