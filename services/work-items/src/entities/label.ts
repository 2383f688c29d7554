import { Label, LabelCounts, textColorFor } from '../labels/label-store';

function html(description: string | null): string {
  if (!description) return '';
  const escaped = description.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return `<p dir="auto">${escaped}</p>`;
}

/** GitLab's `LabelBasic`: what `with_labels_details=true` embeds in issues. */
export function toLabelBasic(l: Label): Record<string, unknown> {
  return {
    id: l.id,
    name: l.title,
    color: l.color,
    description: l.description,
    description_html: html(l.description),
    text_color: textColorFor(l.color),
    remove_on_close: false,
  };
}

/**
 * GitLab's `ProjectLabel` (`projectId` given: adds `priority`, `is_project_label`) or `GroupLabel`
 * entity; counts (shown with `with_counts=true`) only when given.
 */
export function toLabel(l: Label, opts: { projectId?: number; counts?: LabelCounts; subscribed?: boolean }): Record<string, unknown> {
  const out: Record<string, unknown> = { ...toLabelBasic(l) };
  if (opts.counts) Object.assign(out, opts.counts);
  out.subscribed = opts.subscribed ?? false;
  if (opts.projectId !== undefined) {
    out.priority = l.priority;
    out.is_project_label = l.projectId === opts.projectId;
  }
  return out;
}
