/**
 * LDAP distinguished names (RFC 4514) normalised for comparison as GitLab compares them
 * (`Gitlab::Auth::Ldap::DN#to_normalized_s`): whitespace around the `,` `+` `=` separators and
 * around unescaped values dropped, everything lower-cased, escapes kept as written.
 * https://www.rfc-editor.org/rfc/rfc4514#section-3
 */

/** One `type=value` pair of a relative distinguished name, both normalised. */
export interface Ava {
  type: string;
  value: string;
}

const TYPE = /^(?:[A-Za-z][A-Za-z0-9-]*|[0-9]+(?:\.[0-9]+)*)$/;

function readValue(dn: string, start: number): { value: string; end: number } | null {
  let i = start;
  while (dn[i] === ' ') i += 1;
  if (dn[i] === '#') {
    const m = /^#(?:[0-9A-Fa-f]{2})+/.exec(dn.slice(i));
    if (!m) return null;
    i += m[0].length;
    while (dn[i] === ' ') i += 1;
    return i === dn.length || ',+'.includes(dn[i]) ? { value: m[0], end: i } : null;
  }
  let out = '';
  let trailing = 0;
  for (; i < dn.length && !',+'.includes(dn[i]); i += 1) {
    const c = dn[i];
    if (c === '\\') {
      const hex = /^[0-9A-Fa-f]{2}/.exec(dn.slice(i + 1));
      const escaped = hex ? hex[0] : dn[i + 1];
      if (escaped === undefined) return null;
      out += `\\${escaped}`;
      i += escaped.length;
      trailing = 0;
    } else if (c === '"' || c === ';' || c === '<' || c === '>' || c === '=') {
      return null;
    } else {
      out += c;
      trailing = c === ' ' ? trailing + 1 : 0;
    }
  }
  return { value: out.slice(0, out.length - trailing), end: i };
}

/** The RDNs of `dn`, each a list of pairs; null when `dn` is not a distinguished name. */
export function parseDn(dn: string): Ava[][] | null {
  const rdns: Ava[][] = [];
  let rdn: Ava[] = [];
  let i = 0;
  if (!dn.trim()) return null;
  while (i <= dn.length) {
    const eq = dn.indexOf('=', i);
    if (eq < 0) return null;
    const type = dn.slice(i, eq).trim();
    if (!TYPE.test(type)) return null;
    const v = readValue(dn, eq + 1);
    if (!v) return null;
    rdn.push({ type: type.toLowerCase(), value: v.value.toLowerCase() });
    if (dn[v.end] !== '+') {
      rdns.push(rdn);
      rdn = [];
    }
    if (v.end === dn.length) return rdns;
    i = v.end + 1;
  }
  return null;
}

/** `dn` normalised (`uid=john,ou=people,dc=example,dc=com`), or null when it is not a DN. */
export function normalizeDn(dn: string): string | null {
  const rdns = parseDn(dn);
  return rdns ? rdns.map((r) => r.map((a) => `${a.type}=${a.value}`).join('+')).join(',') : null;
}

/** The value of `dn` when it is a single `<attribute>=<value>` RDN (a bare uid), else null. */
export function singleRdnValue(dn: string, attribute: string): string | null {
  const rdns = parseDn(dn);
  if (!rdns || rdns.length !== 1 || rdns[0].length !== 1 || rdns[0][0].type !== attribute.toLowerCase()) return null;
  return rdns[0][0].value.replace(/\\([0-9a-f]{2}|.)/g, (_, e: string) => (e.length === 2 ? String.fromCharCode(parseInt(e, 16)) : e));
}
