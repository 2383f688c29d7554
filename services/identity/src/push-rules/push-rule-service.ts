import type { Actor } from '@anvil/auth';
import { UnprocessableError, ValidationError } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { publish } from '../events/publish';
import { GLOBAL_DEFAULT_FLAGS, PushRule, PushRuleAttributes, REGEX_LIMITS } from './push-rule';
import { pushRuleStore } from './push-rule-store';
import { re2SyntaxError } from './re2-syntax';

/** Field errors as GitLab's push rule validations word them (RE2 syntax, lengths, file size). */
export function pushRuleErrors(attrs: PushRuleAttributes): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (f: string, m: string) => (errors[f] ??= []).push(m);
  if (attrs.max_file_size !== undefined && attrs.max_file_size !== null && attrs.max_file_size < 0) add('max_file_size', 'must be greater than or equal to 0');
  for (const [name, max] of Object.entries(REGEX_LIMITS)) {
    const value = attrs[name as keyof typeof REGEX_LIMITS];
    if (typeof value !== 'string') continue;
    const syntax = re2SyntaxError(value);
    if (syntax) add(name, `not valid RE2 syntax: ${syntax}`);
    if (value.length > max) add(name, `is too long (maximum is ${max} characters)`);
  }
  return errors;
}

/** The attributes as stored: a `false` of a setting with a global default is kept as null. */
function stored(attrs: PushRuleAttributes): PushRuleAttributes {
  const out = { ...attrs };
  for (const flag of GLOBAL_DEFAULT_FLAGS) if (out[flag] === false) out[flag] = null;
  if (out.max_file_size === null) delete out.max_file_size;
  return out;
}

function validate(attrs: PushRuleAttributes): void {
  const errors = pushRuleErrors(attrs);
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

/** Creates a group's push rule (422 when it has one) and writes `identity.push_rule.created`. */
export async function createPushRule(ctx: IdentityContext, actor: Actor, groupId: number, attrs: PushRuleAttributes): Promise<PushRule> {
  validate(attrs);
  return ctx.db.transaction(async (trx) => {
    await trx.raw('SELECT id FROM namespaces WHERE id = ? FOR UPDATE', [groupId]);
    if (await pushRuleStore.findForGroup(trx, groupId)) throw new UnprocessableError('Group push rule exists, try updating');
    const rule = await pushRuleStore.insert(trx, groupId, stored(attrs));
    await publish.pushRule(trx, 'created', rule, actor.id);
    return rule;
  });
}

/** Changes the given attributes of a push rule and writes `identity.push_rule.updated`. */
export async function updatePushRule(ctx: IdentityContext, actor: Actor, rule: PushRule, attrs: PushRuleAttributes): Promise<PushRule> {
  validate(attrs);
  return ctx.db.transaction(async (trx) => {
    const updated = await pushRuleStore.update(trx, rule.id, stored(attrs));
    await publish.pushRule(trx, 'updated', updated, actor.id);
    return updated;
  });
}

/** Deletes a push rule and writes `identity.push_rule.deleted`. */
export async function deletePushRule(ctx: IdentityContext, actor: Actor, rule: PushRule): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    await pushRuleStore.delete(trx, rule.id);
    await publish.pushRule(trx, 'deleted', rule, actor.id);
  });
}
