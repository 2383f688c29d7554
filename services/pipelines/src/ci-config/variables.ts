/** Variable expansion in configuration values. Pure. */

/** `$VAR`, `${VAR}` and `%VAR%` replaced by their values, unknown ones by nothing (GitLab's ExpandVariables.expand). */
export function expandVariables(text: string, vars: Record<string, string>): string {
  return text.replace(/\$\$|\$([A-Za-z_][A-Za-z0-9_]*)|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|%([A-Za-z_][A-Za-z0-9_]*)%/g, (whole, a, b, c) => {
    if (whole === '$$') return whole;
    const name = a ?? b ?? c;
    return Object.prototype.hasOwnProperty.call(vars, name) ? vars[name] : '';
  });
}
