/**
 * Quick actions in a note body (GitLab's `QuickActions::Extractor`, reduced to argument-less
 * commands): a line that starts with `/<command>` for an available command is taken out of the
 * text and run; unavailable commands stay as text. Lines inside fenced code blocks are left alone.
 */
export interface Extracted {
  /** The available commands found, in order (each once). */
  commands: string[];
  /** The body without the command lines, trimmed. */
  text: string;
}

/** Splits `body` into the available commands it holds and the remaining text. */
export function extractQuickActions(body: string, available: ReadonlySet<string>): Extracted {
  const commands: string[] = [];
  const kept: string[] = [];
  let inFence = false;
  for (const line of body.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const m = inFence ? null : /^\/([a-z_]+)(?:\s.*)?$/.exec(line.replace(/\r$/, ''));
    if (m && available.has(m[1])) {
      if (!commands.includes(m[1])) commands.push(m[1]);
      continue;
    }
    kept.push(line);
  }
  return { commands, text: kept.join('\n').trim() };
}
