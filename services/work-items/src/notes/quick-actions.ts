/**
 * Quick actions in a note body (GitLab's `QuickActions::Extractor`, reduced to argument-less
 * commands): a line that starts with `/<command>` for an available command is taken out of the
 * text and run (names case-insensitively, as GitLab's); unavailable commands stay as text, and so
 * does a command after leading whitespace. Lines inside fenced code blocks are left alone.
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
    const m = inFence ? null : /^\/([a-z_]+)(?: .*)?\s*$/i.exec(line.replace(/\r$/, ''));
    const name = m?.[1].toLowerCase();
    if (name && available.has(name)) {
      if (!commands.includes(name)) commands.push(name);
      continue;
    }
    kept.push(line);
  }
  return { commands, text: kept.join('\n').trim() };
}
