/** #/ — one card per trigger. */
import type { Overview } from '../../api-types.ts';
import { Empty } from '../components/Empty.tsx';
import { TriggerCard } from '../components/TriggerCard.tsx';

export function TriggersView({ overview, offset }: { overview: Overview; offset: number }) {
  if (overview.triggers.length === 0) {
    return (
      <Empty testid="triggers-empty">
        No Sluice triggers in this service — add a <code>sluice:</code> event (with its <code>topic</code>) to a function in serverless.yml and restart{' '}
        <code>npm start</code>.
      </Empty>
    );
  }
  return (
    <div class="triggers">
      <h1 class="visually-hidden">Triggers</h1>
      {overview.triggers.map((trigger) => (
        <TriggerCard key={`${trigger.function}|${trigger.topic}`} trigger={trigger} offset={offset} now={overview.now} />
      ))}
    </div>
  );
}
