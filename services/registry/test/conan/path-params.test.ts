import {
  type Family,
  PACKAGE_REFERENCE,
  PACKAGE_REVISION,
  PACKAGE_REVISION_FILE,
  parseConanParams,
  type ParamsResult,
  RECIPE,
  REVISION,
  REVISION_FILE,
  REVISION_PACKAGE_REFERENCE,
} from '../../src/conan/path-params';

const RREV = 'd41d8cd98f00b204e9800998ecf8427e';
const PREV = 'da39a3ee5e6b4b0d3255bfef95601890afd80709';
const ref = { name: 'hello', version: '1.0', username: 'group+proj', channel: 'stable' };
const recipe = { package_name: 'hello', package_version: '1.0', package_username: 'group+proj', package_channel: 'stable' };
const invalid = (message: string): ParamsResult<Family> => ({ ok: false, problem: { kind: 'invalid', message } });

describe('parseConanParams: each route family gets exactly its parameters', () => {
  it.each<[string, Family, Record<string, string>, 'v1' | 'v2', object]>([
    ['recipe', RECIPE, {}, 'v2', { ref }],
    ['recipe revision (v2)', REVISION, { recipe_revision: RREV }, 'v2', { ref, recipeRevision: RREV }],
    ['recipe revision (v1: 0)', REVISION, { recipe_revision: '0' }, 'v1', { ref, recipeRevision: '0' }],
    ['v1 package reference (any segment)', PACKAGE_REFERENCE, { conan_package_reference: 'a-b.c' }, 'v1', { ref, packageReference: 'a-b.c' }],
    ['package reference under a revision', REVISION_PACKAGE_REFERENCE, { recipe_revision: RREV, conan_package_reference: 'abc123' }, 'v2', { ref, recipeRevision: RREV, packageReference: 'abc123' }],
    ['package revision', PACKAGE_REVISION, { recipe_revision: RREV, conan_package_reference: 'abc', package_revision: PREV }, 'v2', { ref, recipeRevision: RREV, packageReference: 'abc', packageRevision: PREV }],
    ['v1 package revision other than 0 (GitLab has no rule)', PACKAGE_REVISION, { recipe_revision: '0', conan_package_reference: 'abc', package_revision: 'xyz' }, 'v1', { ref, recipeRevision: '0', packageReference: 'abc', packageRevision: 'xyz' }],
    ['recipe file', REVISION_FILE, { recipe_revision: RREV, file_name: 'conanfile.py' }, 'v2', { ref, recipeRevision: RREV, fileName: 'conanfile.py' }],
    ['package file', PACKAGE_REVISION_FILE, { recipe_revision: RREV, conan_package_reference: 'abc', package_revision: PREV, file_name: 'conaninfo.txt' }, 'v2', { ref, recipeRevision: RREV, packageReference: 'abc', packageRevision: PREV, fileName: 'conaninfo.txt' }],
    ['undeclared segments left out', RECIPE, { recipe_revision: RREV, file_name: 'conanfile.py' }, 'v2', { ref }],
  ])('%s', (_case, family, extra, protocol, params) => {
    expect(parseConanParams({ ...recipe, ...extra }, 'project', protocol, family)).toEqual({ ok: true, params });
  });
});

describe('parseConanParams: refusals in GitLab order', () => {
  it.each<[string, Family, Record<string, string | undefined>, 'instance' | 'project', 'v1' | 'v2', ParamsResult<Family>]>([
    ['a bad name', RECIPE, { package_name: 'pac$kage' }, 'project', 'v2', invalid('package_name is invalid')],
    ['every recipe part bad, in declaration order', RECIPE, { package_name: 'h', package_version: '1', package_username: 'a', package_channel: 'b' }, 'project', 'v2',
      invalid('package_name is invalid, package_version is invalid, package_username is invalid, package_channel is invalid')],
    ['a missing segment', RECIPE, { package_channel: undefined }, 'project', 'v2', invalid('package_channel is invalid')],
    ['recipe parts before revision and file name', REVISION_FILE, { package_name: 'h$', recipe_revision: '0', file_name: 'x' }, 'project', 'v2',
      invalid('package_name is invalid, recipe_revision is invalid, file_name does not have a valid value')],
    ['v2 refuses revision 0', REVISION, { recipe_revision: '0' }, 'project', 'v2', invalid('recipe_revision is invalid')],
    ['v1 refuses any revision but 0', REVISION, { recipe_revision: RREV }, 'project', 'v1', invalid('recipe_revision is invalid')],
    ['v2 package reference with other characters', REVISION_PACKAGE_REFERENCE, { recipe_revision: RREV, conan_package_reference: 'pk-g' }, 'project', 'v2', invalid('conan_package_reference is invalid')],
    ['v2 package revision not a hash', PACKAGE_REVISION, { recipe_revision: RREV, conan_package_reference: 'a', package_revision: '0' }, 'project', 'v2', invalid('package_revision is invalid')],
    ['unknown file name', REVISION_FILE, { recipe_revision: RREV, file_name: 'evil.sh' }, 'project', 'v2', invalid('file_name does not have a valid value')],
    ['`_` username at instance level', RECIPE, { package_username: '_', package_channel: '_' }, 'instance', 'v1', { ok: false, problem: { kind: 'unknown-username' } }],
    ['`_` username alone at instance level (no project either)', RECIPE, { package_username: '_' }, 'instance', 'v1', { ok: false, problem: { kind: 'unknown-username' } }],
    ['`_` channel alone', RECIPE, { package_channel: '_' }, 'project', 'v2', { ok: false, problem: { kind: 'solely-blank', field: 'channel' } }],
    ['`_` username alone', RECIPE, { package_username: '_' }, 'project', 'v2', { ok: false, problem: { kind: 'solely-blank', field: 'username' } }],
    ['Grape errors before the `_` rules', RECIPE, { package_name: '$', package_username: '_' }, 'instance', 'v1', invalid('package_name is invalid')],
  ])('%s', (_case, family, over, level, protocol, expected) => {
    expect(parseConanParams({ ...recipe, ...over }, level, protocol, family)).toEqual(expected);
  });

  it('accepts `_`/`_` at project level (Conan 2 references without user/channel)', () => {
    expect(parseConanParams({ ...recipe, package_username: '_', package_channel: '_' }, 'project', 'v2', RECIPE)).toEqual({ ok: true, params: { ref: { ...ref, username: '_', channel: '_' } } });
  });
});
