import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';

/** Whether the `git` binary is installed: tests then also check their ids against it. */
export const GIT_INSTALLED = spawnSync('git', ['--version']).status === 0;

/** Runs git in `dir` with `env` (author/committer fixed by the caller); stdout trimmed. */
export function git(dir: string, env: Record<string, string>, args: string[], input?: string | Buffer): string {
  return execFileSync('git', args, { cwd: dir, env: { ...process.env, HOME: dir, ...env }, input }).toString().trim();
}

/** A Git object id computed here, apart from the code under test: SHA-1 of `<type> <length>\0<body>`. */
export function objectIdOf(type: string, body: string | Buffer): string {
  const bytes = Buffer.from(body);
  return createHash('sha1').update(`${type} ${bytes.length}\0`).update(bytes).digest('hex');
}

/** The author and committer environment of git for `name <email>` at `seconds` UTC. */
export function identityEnv(name: string, email: string, seconds: number, committer = { name, email }): Record<string, string> {
  const date = `${seconds} +0000`;
  return { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_AUTHOR_DATE: date, GIT_COMMITTER_NAME: committer.name, GIT_COMMITTER_EMAIL: committer.email, GIT_COMMITTER_DATE: date };
}
