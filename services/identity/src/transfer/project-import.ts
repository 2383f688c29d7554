import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Knex } from 'knex';
import type { Actor } from '@anvil/auth';
import type { ImportPartCompletedV1 } from '@anvil/events';
import type { Storage } from '@anvil/storage';
import { publish } from '../events/publish';
import { visibilityRank } from '../namespaces/namespace';
import { Level } from '../policy';
import { effectiveLevel, type Project } from '../projects/project';
import type { ProjectSettings } from '../projects/project-settings';
import { projectStore } from '../projects/project-store';
import { attributesFromTree, HAS_ONE_RELATIONS, type HasOneRelations, isInt, readJsonObject, withOverrides } from './project-import-attributes';

type Row = Record<string, any>;
type Failure = ImportPartCompletedV1['failures'][number];

/** Most `project_members.ndjson` lines read. */
const MAX_MEMBERS = 100_000;

/** This instance's user ids by lower-cased e-mail address (primary, or a confirmed secondary address). */
export async function usersByEmail(db: Knex, emails: string[]): Promise<Map<string, number>> {
  const lower = [...new Set(emails.map((e) => e.toLowerCase()))];
  const out = new Map<string, number>();
  if (!lower.length) return out;
  const primary = await db('users').whereRaw('lower(email) = ANY(?)', [lower]).select('id', 'email');
  const secondary = await db('emails').whereRaw('lower(email) = ANY(?)', [lower]).whereNotNull('confirmed_at').select('user_id as id', 'email');
  for (const r of [...secondary, ...primary] as { id: number; email: string }[]) out.set(r.email.toLowerCase(), r.id);
  return out;
}

/** The e-mail GitLab maps an exported member by (`public_email`, else `email`). */
const emailOf = (m: Row): string | null => {
  const e = m.user?.public_email ?? m.user?.email;
  return typeof e === 'string' && e ? e.toLowerCase() : null;
};

const VALID_LEVELS = new Set<number>([Level.MINIMAL, Level.GUEST, Level.PLANNER, Level.REPORTER, Level.DEVELOPER, Level.MAINTAINER, Level.OWNER]);

/** Reads `project_members.ndjson` as it streams: parsed lines, and the lines that did not parse. */
async function readMembers(body: Readable | null, failures: Failure[]): Promise<Row[]> {
  const out: Row[] = [];
  if (!body) return out;
  let n = -1;
  for await (const text of createInterface({ input: body, crlfDelay: Infinity })) {
    n += 1;
    if (!text.trim()) continue;
    if (out.length >= MAX_MEMBERS) {
      failures.push({ relation_name: 'project_members', line_number: n, exception_class: 'RangeError', exception_message: `more than ${MAX_MEMBERS} members` });
      body.destroy();
      break;
    }
    try {
      const m = JSON.parse(text);
      if (!m || typeof m !== 'object' || !isInt(m.access_level) || !VALID_LEVELS.has(m.access_level)) throw new TypeError('Access level is not included in the list');
      out.push(m as Row);
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      failures.push({ relation_name: 'project_members', line_number: n, exception_class: err.name, exception_message: err.message.slice(0, 255) });
    }
  }
  return out;
}

/** What identity's part of an import did. */
export interface IdentityImportResult {
  counts: Record<string, number>;
  failures: Failure[];
}

/**
 * Identity's part of an import into `projectId`, as GitLab's `MembersMapper` and project tree
 * restorer do it:
 * - the importer stays a Maintainer or Owner: without a direct membership of at least Maintainer,
 *   they become a direct member (an administrator as Maintainer, others at their group level capped
 *   at Maintainer);
 * - each exported member whose user maps by e-mail to a user here who is not yet a direct member
 *   is added with their level, never above Maintainer nor the importer's own level, their expiry
 *   (a past one is not added) and the mapped creator; members that map to no one are not added;
 * - the project's attributes from `project.json` and its has-one relations (`project_feature`,
 *   `ci_cd_settings`, `auto_devops`) are applied with
 *   `override_params` winning, the visibility capped at the namespace's.
 * Everything commits in one transaction with its events; a redelivery adds nothing twice.
 */
export async function importIdentityPart(
  db: Knex, storage: Storage, publicUrl: string,
  input: { projectId: number; importerId: number; prefix: string; overrideParams?: Record<string, unknown> },
): Promise<IdentityImportResult | null> {
  const importer = (await db('users').where({ id: input.importerId }).first('id', 'admin')) as Pick<Actor, 'id' | 'admin'> | undefined;
  const project = await projectStore.find(db, input.projectId, input.importerId);
  if (!importer || !project) return null;
  const failures: Failure[] = [];
  const relationFile = async (name: string) => {
    try {
      return await readJsonObject(storage, `${input.prefix}tree/project/${name}.ndjson`);
    } catch (e) {
      failures.push({ relation_name: name, line_number: 0, exception_class: (e as Error).name, exception_message: (e as Error).message.slice(0, 255) });
      return null;
    }
  };
  let tree: Row | null = null;
  try {
    tree = await readJsonObject(storage, `${input.prefix}tree/project.json`);
  } catch (e) {
    failures.push({ relation_name: 'project', line_number: 0, exception_class: (e as Error).name, exception_message: (e as Error).message.slice(0, 255) });
  }
  const relations: HasOneRelations = {};
  for (const name of HAS_ONE_RELATIONS) relations[name] = await relationFile(name);
  const attrs = withOverrides(attributesFromTree(tree ?? {}, relations), input.overrideParams);
  const members = await readMembers(await storage.get(`${input.prefix}tree/project/project_members.ndjson`), failures);

  const emails = new Map<number, string>();
  for (const m of members) {
    const email = emailOf(m);
    if (email && isInt(m.user?.id)) emails.set(m.user.id, email);
  }
  const local = await usersByEmail(db, members.map(emailOf).filter((e): e is string => e !== null));
  const importerCap = importer.admin ? Level.MAINTAINER : Math.min(Level.MAINTAINER, effectiveLevel(project));
  const importerLevel = importer.admin ? Level.MAINTAINER : Math.min(Level.MAINTAINER, Math.max(project.access.group, project.access.project));
  const today = new Date().toISOString().slice(0, 10);

  return db.transaction(async (trx) => {
    const rows: { user_id: number; access_level: number; expires_at: string | null; created_by_id: number | null }[] = [];
    const direct = await trx('members').where({ source_type: 'Project', source_id: project.id }).select('user_id', 'access_level');
    const own = direct.find((r: { user_id: number }) => r.user_id === importer.id) as { access_level: number } | undefined;
    if ((!own || own.access_level < Level.MAINTAINER) && importerLevel > 0) {
      if (own) await trx('members').where({ source_type: 'Project', source_id: project.id, user_id: importer.id }).update({ access_level: importerLevel, updated_at: trx.fn.now() });
      else await trx('members').insert({ source_type: 'Project', source_id: project.id, user_id: importer.id, access_level: importerLevel, created_by_id: importer.id });
      await publish.membership(trx, own ? 'updated' : 'created', { sourceType: 'Project', sourceId: project.id, accessLevel: importerLevel, expiresAt: null, user: { id: importer.id } });
    }
    const seen = new Set<number>([importer.id, ...direct.map((r: { user_id: number }) => r.user_id)]);
    for (const m of members) {
      const email = emailOf(m);
      const userId = email ? local.get(email) : undefined;
      if (userId === undefined || seen.has(userId)) continue;
      const expires = typeof m.expires_at === 'string' && /^\d{4}-\d{2}-\d{2}/.test(m.expires_at) ? m.expires_at.slice(0, 10) : null;
      if (expires !== null && expires <= today) continue;
      seen.add(userId);
      const creatorEmail = isInt(m.created_by_id) ? emails.get(m.created_by_id) : undefined;
      rows.push({ user_id: userId, access_level: Math.min(m.access_level, importerCap), expires_at: expires, created_by_id: creatorEmail ? local.get(creatorEmail) ?? null : null });
    }
    const inserted = rows.length
      ? ((await trx('members').insert(rows.map((r) => ({ ...r, source_type: 'Project', source_id: project.id }))).onConflict(['source_type', 'source_id', 'user_id']).ignore().returning(['user_id', 'access_level', 'expires_at'])) as { user_id: number; access_level: number; expires_at: string | Date | null }[])
      : [];
    for (const r of inserted) {
      const expiresAt = r.expires_at === null ? null : typeof r.expires_at === 'string' ? r.expires_at : r.expires_at.toISOString().slice(0, 10);
      await publish.membership(trx, 'created', { sourceType: 'Project', sourceId: project.id, accessLevel: r.access_level, expiresAt, user: { id: r.user_id } });
    }

    const visibility = attrs.visibility && project.namespace.kind === 'group' && visibilityRank(attrs.visibility) > visibilityRank(project.namespace.visibility) ? project.namespace.visibility : attrs.visibility;
    await projectStore.update(trx, project.id, {
      description: attrs.description, visibility, archived: attrs.archived, default_branch: attrs.default_branch,
      settings: Object.keys(attrs.settings).length ? ({ ...project.settings, ...attrs.settings } as ProjectSettings) : undefined,
    });
    const updated = (await projectStore.find(trx, project.id, importer.id)) as Project;
    await publish.project(trx, 'updated', updated, publicUrl);
    return { counts: { project: tree ? 1 : 0, project_members: inserted.length }, failures: failures.slice(0, 100) };
  });
}
