import { toUser, UserRow } from '../src/users/user';
import { toUserBasic, toUserPublic, toUserWithAdmin } from '../src/entities/user';

const BASE = 'http://127.0.0.1:8080/';

function row(overrides: Partial<UserRow> = {}): UserRow & { namespace_id: number } {
  const t = new Date('2026-01-02T03:04:05.678Z');
  return {
    id: 9, username: 'ada', email: 'ada@example.com', name: 'Ada', state: 'active', admin: false, password_digest: null, external: false, bot: false,
    bio: 'b', location: 'l', public_email: 'pub@example.com', website_url: 'w', organization: 'Org', job_title: 'Dev', pronouns: null, linkedin: '',
    twitter: '', discord: '', github: '', note: 'n', commit_email: null, projects_limit: 10, can_create_group: true, private_profile: false,
    theme_id: 3, color_scheme_id: 1, created_by_id: null, confirmed_at: t, last_sign_in_at: null, current_sign_in_at: t, last_activity_on: '2026-01-02',
    created_at: t, updated_at: t, namespace_id: 12, ...overrides,
  };
}

describe('user entities', () => {
  it('UserWithAdmin is UserPublic plus the administrator fields, in that order', () => {
    const u = { ...toUser(row({ admin: true, commit_email: '_private' })), identities: [{ provider: 'ldapmain', externUid: 'uid=ada', samlProviderId: null }] } as ReturnType<typeof toUser>;
    const creator = { id: 1, username: 'root', name: 'Root', state: 'active' as const };
    const entity = toUserWithAdmin(u, BASE, creator);
    const expected = {
      ...toUserPublic(u, BASE),
      is_admin: true, note: 'n', namespace_id: 12, created_by: toUserBasic(creator, BASE), email_reset_offered_at: null,
    };
    expect(Object.keys(entity)).toEqual(Object.keys(expected));
    expect(entity).toEqual(expected);
    expect(entity).toMatchObject({ web_url: 'http://127.0.0.1:8080/ada', work_information: 'Dev at Org', commit_email: 'ada@example.com', identities: [{ provider: 'ldapmain', extern_uid: 'uid=ada', saml_provider_id: null }] });
  });

  it('has no creator when none is given', () => {
    expect(toUserWithAdmin(toUser(row()), BASE).created_by).toBeNull();
  });
});
