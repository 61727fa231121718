/**
 * A Dockerfile's build without Docker (the test machine has none), for the instructions Sluice's
 * own Dockerfiles use: ARG, FROM … AS, WORKDIR, COPY [--from=stage], RUN (shell form), ENV, USER,
 * CMD (exec form). Each stage is a directory; RUN runs on this machine in the stage's WORKDIR,
 * whose commands use relative paths. A COPY of something the Dockerfile's own .dockerignore
 * (an allow-list: `*`, then `!path` lines) leaves out of the context fails, as the build would.
 * What differs from Docker (the base image's OS, a command that needs the internet) is the
 * caller's to replace, by `replace`, and to say.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

export interface DockerBuild {
  /** The last stage's directory standing for `/`. */
  root: string;
  /** Its WORKDIR, on this machine. */
  workdir: string;
  env: Record<string, string>;
  cmd: string[];
  /** Each RUN's output, in order. */
  log: string[];
}

export interface DockerBuildOptions {
  /** Replacements applied to each RUN command before it runs (what cannot run here). */
  replace?: Array<[RegExp, string]>;
  /** Environment of the RUN commands, besides the stage's ENV. */
  runEnv?: NodeJS.ProcessEnv;
}

interface Stage {
  root: string;
  workdir: string;
  env: Record<string, string>;
}

/** The instructions, continuation lines joined and comments dropped (also inside a continuation, as Docker does). */
function instructions(text: string): Array<{ op: string; args: string }> {
  const out: Array<{ op: string; args: string }> = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (/^\s*#/.test(line) || (current === '' && line.trim() === '')) continue;
    if (line.endsWith('\\')) {
      current += line.slice(0, -1) + ' ';
      continue;
    }
    current += line;
    const m = /^\s*(\w+)\s+([\s\S]*)$/.exec(current);
    if (m) out.push({ op: m[1]!.toUpperCase(), args: m[2]!.trim() });
    current = '';
  }
  return out;
}

function allowed(dockerignore: string | undefined): (path: string) => boolean {
  if (dockerignore === undefined) return () => true;
  const lines = dockerignore.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  if (lines[0] !== '*') throw new Error('only allow-list .dockerignore files (`*`, then `!path` lines) are understood here');
  const kept = lines.slice(1).map((l) => {
    if (!l.startsWith('!')) throw new Error(`unexpected .dockerignore line: ${l}`);
    return l.slice(1).replace(/\/$/, '');
  });
  return (path) => {
    const p = path.replace(/^\.\//, '').replace(/\/$/, '');
    return kept.some((k) => p === k || p.startsWith(`${k}/`));
  };
}

export function dockerBuild(dockerfile: string, context: string, into: string, o: DockerBuildOptions = {}): DockerBuild {
  const ignore = `${dockerfile}.dockerignore`;
  const inContext = allowed(existsSync(ignore) ? readFileSync(ignore, 'utf8') : undefined);
  const args: Record<string, string> = {};
  const stages = new Map<string, Stage>();
  let stage: Stage | undefined;
  let cmd: string[] = [];
  const log: string[] = [];
  const here = (s: Stage, p: string) => join(s.root, p.startsWith('/') ? p : join(s.workdir, p));
  const current = () => {
    if (!stage) throw new Error('an instruction before FROM');
    return stage;
  };

  for (const { op, args: rest } of instructions(readFileSync(dockerfile, 'utf8'))) {
    switch (op) {
      case 'ARG': {
        const [name, value] = rest.split('=');
        args[name!] = value ?? '';
        break;
      }
      case 'FROM': {
        const name = /\bAS\s+(\S+)$/i.exec(rest)?.[1] ?? `stage${stages.size}`;
        stage = { root: join(into, name), workdir: '/', env: {} };
        mkdirSync(stage.root, { recursive: true });
        stages.set(name, stage);
        break;
      }
      case 'WORKDIR':
        current().workdir = rest;
        mkdirSync(here(current(), '.'), { recursive: true });
        break;
      case 'ENV':
        for (const m of rest.matchAll(/(\w+)=("[^"]*"|\S+)/g)) current().env[m[1]!] = m[2]!.replace(/^"|"$/g, '');
        break;
      case 'USER':
        break; // files are this user's here; the image runs as that user
      case 'COPY': {
        const words = rest.split(/\s+/);
        const from = words[0]!.startsWith('--from=') ? stages.get(words.shift()!.slice('--from='.length)) : undefined;
        const dest = words.pop()!;
        for (const src of words) {
          if (!from && !inContext(src)) throw new Error(`COPY ${src}: the Dockerfile's .dockerignore leaves it out of the context`);
          const source = from ? here(from, src) : join(context, src);
          if (!existsSync(source)) throw new Error(`COPY ${src}: not in the ${from ? 'stage' : 'context'} (${source})`);
          const target = dest.endsWith('/') && statSync(source).isFile() ? join(here(current(), dest), basename(src)) : here(current(), dest);
          cpSync(source, target, { recursive: true });
        }
        break;
      }
      case 'RUN': {
        let command = rest;
        for (const [pattern, by] of o.replace ?? []) command = command.replace(pattern, by);
        const r = spawnSync('sh', ['-c', command], { cwd: here(current(), '.'), encoding: 'utf8', env: { ...process.env, ...o.runEnv, ...current().env }, timeout: 600_000 });
        log.push(`$ ${command}\n${r.stdout}${r.stderr}`);
        if (r.status !== 0) throw new Error(`RUN ${command} failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
        break;
      }
      case 'CMD':
        cmd = JSON.parse(rest) as string[];
        break;
      default:
        throw new Error(`${op}: not an instruction this build understands`);
    }
  }
  const last = current();
  return { root: last.root, workdir: here(last, '.'), env: last.env, cmd, log };
}
