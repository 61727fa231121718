/**
 * #/send — produce one record (POST /api/produce) to a topic the console knows: key (empty: none),
 * headers as a JSON object of strings, a value or a tombstone, and an optional partition.
 */
import { useState } from 'preact/hooks';
import type { Overview, ProduceRequest, ProduceResult } from '../../api-types.ts';
import { Empty } from '../components/Empty.tsx';
import { Txt } from '../components/Text.tsx';
import { errorText, postJson } from '../lib/api.ts';
import { plural } from '../lib/format.ts';

type Result = { ok: true; text: string } | { ok: false; text: string } | null;

/** The headers field as a record of strings, or why it is not one. */
export function parseHeaders(text: string): Record<string, string> | string {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return `Headers are not valid JSON: ${errorText(err)}`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'Headers must be a JSON object, like {"trace-id": "abc"}';
  for (const [name, v] of Object.entries(value)) if (typeof v !== 'string') return `Header "${name}" must be a string, not ${JSON.stringify(v)}`;
  return value as Record<string, string>;
}

function parsePartition(text: string): number | undefined | string {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 ? n : 'The partition must be a whole number, 0 or more (or empty: the partitioner picks)';
}

export function SendView({ overview }: { overview: Overview }) {
  const topics = overview.topics;
  const [topic, setTopic] = useState(topics[0] ?? '');
  const [key, setKey] = useState('');
  const [headers, setHeaders] = useState('{}');
  const [value, setValue] = useState('');
  const [tombstone, setTombstone] = useState(false);
  const [partition, setPartition] = useState('');
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<Result>(null);
  const chosen = topics.includes(topic) ? topic : (topics[0] ?? '');

  if (topics.length === 0) return <Empty>No topic to send to: the service has no Sluice trigger.</Empty>;

  const submit = async (e?: Event): Promise<void> => {
    e?.preventDefault();
    const parsedHeaders = parseHeaders(headers);
    if (typeof parsedHeaders === 'string') return setResult({ ok: false, text: parsedHeaders });
    const parsedPartition = parsePartition(partition);
    if (typeof parsedPartition === 'string') return setResult({ ok: false, text: parsedPartition });
    const body: ProduceRequest = { topic: chosen, key: key === '' ? null : key, value: tombstone ? null : value, headers: parsedHeaders };
    if (parsedPartition !== undefined) body.partition = parsedPartition;
    setSending(true);
    try {
      const sent = await postJson<ProduceResult>('/api/produce', body);
      setResult({ ok: true, text: `sent ${plural(sent.sent, 'record')} to ${sent.topic}` });
    } catch (err) {
      setResult({ ok: false, text: errorText(err) });
    } finally {
      setSending(false);
    }
  };

  return (
    <div class="send-view">
      <div class="view-head">
        <h1>Send a record</h1>
      </div>
      <form class="send card" onSubmit={(e) => void submit(e)}>
        <label>
          <span>Topic</span>
          <select data-testid="send-topic" value={chosen} onChange={(e) => setTopic(e.currentTarget.value)}>
            {topics.map((t) => <option key={t} value={t}>{t}</option>)}
          </select>
        </label>
        <label>
          <span>
            Key <span class="muted">(empty: no key)</span>
          </span>
          <input data-testid="send-key" value={key} onInput={(e) => setKey(e.currentTarget.value)} autoComplete="off" spellcheck={false} />
        </label>
        <label>
          <span>
            Partition <span class="muted">(empty: the partitioner picks)</span>
          </span>
          <input data-testid="send-partition" type="number" min={0} class="narrow" value={partition} onInput={(e) => setPartition(e.currentTarget.value)} />
        </label>
        <label class="wide">
          <span>
            Headers <span class="muted">(a JSON object of strings)</span>
          </span>
          <textarea data-testid="send-headers" class="code" rows={3} spellcheck={false} value={headers} onInput={(e) => setHeaders(e.currentTarget.value)} />
        </label>
        <label class="wide">
          <span>Value</span>
          <textarea
            data-testid="send-value"
            class="code"
            rows={8}
            spellcheck={false}
            value={tombstone ? '' : value}
            disabled={tombstone}
            placeholder={tombstone ? 'null: a tombstone' : '{"id": 1}'}
            onInput={(e) => setValue(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit();
            }}
          />
        </label>
        <label class="check">
          <input type="checkbox" data-testid="send-tombstone" checked={tombstone} onChange={(e) => setTombstone(e.currentTarget.checked)} /> null
          (tombstone)
        </label>
        <div class="actions wide">
          <button type="submit" class="primary" data-testid="send-submit" disabled={sending}>
            {sending ? 'Sending…' : 'Send'}
          </button>
          <span class="muted hint">Ctrl+Enter in the value sends</span>
        </div>
        <p class={`wide ${result?.ok === false ? 'error-note' : 'ok-note'}`} data-testid="send-result" role="status">
          {result && <Txt s={result.text} />}
        </p>
      </form>
    </div>
  );
}
