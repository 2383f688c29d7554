import { compileErrors, context } from './helpers';

/** Each configuration and the errors GitLab reports for it (all of them, in GitLab's order). */
const CASES: [string, string, string[]][] = [
  // loading (§1)
  ['blank content', '  \n', ['Please provide content of .gitlab-ci.yml']],
  ['a mapping value in a plain scalar', 'unit:\n  script: echo a: b\n', ['(<unknown>): mapping values are not allowed in this context at line 2 column 17']],
  ['a key indented out of its mapping', 'unit:\n  script: a\n stage: test\n', ['(<unknown>): did not find expected key while parsing a block mapping at line 1 column 1']],
  ['an unterminated quoted scalar', 'unit:\n  script: "echo\n', ['(<unknown>): found unexpected end of stream while scanning a quoted scalar at line 2 column 11']],
  ['a tab as indentation', 'unit:\n\tscript: a\n', ['(<unknown>): found character that cannot start any token while scanning for the next token at line 2 column 1']],
  ['a root that is not a mapping', '- a\n- b\n', ['Invalid configuration format']],
  ['a root that is a scalar', 'just text', ['Invalid configuration format']],
  // top level, jobs, hidden jobs (§2)
  ['only hidden jobs', '.a:\n  script: x\n', ['jobs config should contain at least one visible job']],
  ['a key that is not a job', 'unit:\n  image: ruby\n', ['jobs unit config should implement the script:, run:, or trigger: keyword', 'jobs config should contain at least one visible job']],
  ['a job name with spaces that is not a job', 'my job: 1\nok:\n  script: x\n', ['jobs my_job config should implement the script:, run:, or trigger: keyword']],
  ['an empty hidden job', '.empty:\nunit:\n  script: x\n', ["jobs:.empty config can't be blank"]],
  ['unknown job keys', 'unit:\n  script: a\n  foo: 1\n  Bar: 2\n', ['jobs:unit config contains unknown keys: foo, bar']],
  ['script and run together', 'unit:\n  script: a\n  run: b\n', ['jobs:unit config these keys cannot be used together: script, run']],
  ['a blank script', 'unit:\n  script: ""\n', ["jobs:unit script can't be blank"]],
  ['an empty script list', 'unit:\n  script: []\n', ["jobs:unit script can't be blank"]],
  ['a script that is a mapping', 'unit:\n  script: {a: 1}\n', ['jobs:unit:script config should be a string or a nested array of strings up to 10 levels deep']],
  ['a before_script with a number', 'unit:\n  script: a\n  before_script: [1]\n', ['jobs:unit:before_script config should be a string or a nested array of strings up to 10 levels deep']],
  ['a job name over 255 characters', `${'j'.repeat(256)}:\n  script: a\n`, [`jobs:${'j'.repeat(256)} name is too long (maximum is 255 characters)`]],
  // stages (§3)
  ['stages as a string', 'stages: test\nunit:\n  script: a\n', ['stages config should be an array of strings or a nested array of strings up to 10 levels deep']],
  ['an unknown stage', 'unit:\n  stage: x\n  script: a\n', ['unit job: chosen stage does not exist; available stages are .pre, build, test, deploy, .post']],
  ['a stage left out of a user list', 'stages: [build]\nunit:\n  script: a\n', ['unit job: chosen stage does not exist; available stages are .pre, build, .post']],
  ['a stage that is not a string', 'unit:\n  stage: [a]\n  script: a\n', ['jobs:unit:stage config should be a string']],
  // when, start_in, allow_failure (§4)
  ['an unknown when', 'unit:\n  script: a\n  when: later\n', ['jobs:unit when should be one of: on_success, on_failure, always, manual, delayed']],
  ['delayed without start_in', 'unit:\n  script: a\n  when: delayed\n', ['jobs:unit start in should be a duration']],
  ['delayed beyond a week', 'unit:\n  script: a\n  when: delayed\n  start_in: 8 days\n', ['jobs:unit start in should not exceed the limit']],
  ['start_in without delayed', 'unit:\n  script: a\n  start_in: 1 minute\n', ['jobs:unit start in must be blank']],
  ['allow_failure as a string', 'unit:\n  script: a\n  allow_failure: yes please\n', ['jobs:unit allow failure should be a hash or a boolean value', 'jobs:unit:allow_failure config should be a hash or a boolean value']],
  ['allow_failure exit codes as strings', 'unit:\n  script: a\n  allow_failure:\n    exit_codes: [a]\n', ['jobs:unit:allow_failure exit codes should be an array of integers or an integer']],
  ['allow_failure unknown keys', 'unit:\n  script: a\n  allow_failure:\n    codes: 1\n', ['jobs:unit:allow_failure config contains unknown keys: codes']],
  // rules, workflow, only/except (§5)
  ['rules with only', 'unit:\n  script: a\n  only: [main]\n  rules:\n    - when: always\n', ['jobs:unit config key may not be used with `rules`: only']],
  ['rules with only, except and start_in', 'unit:\n  script: a\n  only: [main]\n  except: [tags]\n  start_in: 1m\n  when: delayed\n  rules:\n    - when: always\n',
    ['jobs:unit config key may not be used with `rules`: only, except, start_in', 'jobs:unit start in must be blank']],
  ['rules as a string', 'unit:\n  script: a\n  rules: always\n', ['jobs:unit rules should be an array containing hashes and arrays of hashes', 'jobs:unit:rules config should be an array']],
  ['a rule that is a string', 'unit:\n  script: a\n  rules: [x]\n', ['jobs:unit rules should be an array containing hashes and arrays of hashes', 'jobs:unit:rules:rule config should be a hash']],
  ['a rule with unknown keys', 'unit:\n  script: a\n  rules:\n    - if: $A\n      foo: 1\n', ['jobs:unit:rules:rule config contains unknown keys: foo']],
  ['a rule with an unknown when', 'unit:\n  script: a\n  rules:\n    - when: later\n', ['jobs:unit:rules:rule when unknown value: later']],
  ['a rule with invalid if syntax', 'unit:\n  script: a\n  rules:\n    - if: $A ==\n', ['jobs:unit:rules:rule if invalid expression syntax']],
  ['a rule with an unquoted string', 'unit:\n  script: a\n  rules:\n    - if: $A == main\n', ['jobs:unit:rules:rule if invalid expression syntax']],
  ['a rule with start_in but not delayed', 'unit:\n  script: a\n  rules:\n    - start_in: 1m\n', ['jobs:unit:rules:rule config contains disallowed keys: start_in']],
  ['a delayed rule without start_in', 'unit:\n  script: a\n  rules:\n    - when: delayed\n', ["jobs:unit:rules:rule start in can't be blank", 'jobs:unit:rules:rule start in should be a duration']],
  ['a rule with a string allow_failure', 'unit:\n  script: a\n  rules:\n    - allow_failure: maybe\n', ['jobs:unit:rules:rule allow failure should be a boolean value']],
  ['a rule with hash variables', 'unit:\n  script: a\n  rules:\n    - variables: {A: {value: x}}\n', ['jobs:unit:rules:rule:variables:a config must be a string']],
  ['workflow rules with a job when', 'workflow:\n  rules:\n    - when: manual\nunit:\n  script: a\n', ['workflow:rules:rule when unknown value: manual']],
  ['workflow unknown keys', 'workflow:\n  foo: 1\nunit:\n  script: a\n', ['workflow config contains unknown keys: foo']],
  ['only as a string', 'unit:\n  script: a\n  only: main\n', ['jobs:unit:only has to be either an array of conditions or a hash']],
  ['only with an invalid regex', 'unit:\n  script: a\n  only: ["/(/"]\n', ['jobs:unit:only config should be an array of strings or regular expressions using re2 syntax']],
  ['except with unknown keys', 'unit:\n  script: a\n  except:\n    branches: [main]\n', ['jobs:unit:except config contains unknown keys: branches']],
  ['only variables with invalid syntax', 'unit:\n  script: a\n  only:\n    variables: ["$A = 1"]\n', ['jobs:unit:only variables invalid expression syntax']],
  ['only kubernetes inactive', 'unit:\n  script: a\n  only:\n    kubernetes: inactive\n', ['jobs:unit:only kubernetes unknown value: inactive']],
  // variables (§7)
  ['global variables as a list', 'variables: [A]\nunit:\n  script: a\n', ['variables config should be a hash']],
  ['a variable that is a list', 'variables:\n  A: [1]\nunit:\n  script: a\n', ['variable definition must be either a string or a hash']],
  ['a job variable with description', 'unit:\n  script: a\n  variables:\n    A: {value: x, description: d}\n', ['jobs:unit:variables:a config uses invalid data keys: description']],
  ['a variable whose value is not in its options', 'variables:\n  A: {value: x, options: [y, z]}\nunit:\n  script: a\n', ['variables:a config value must be present in options']],
  // needs, dependencies (§6)
  ['needs as a string', 'unit:\n  script: a\n  needs: build\n', ['jobs:unit:needs config can only be a hash or an array']],
  ['an undefined need', 'unit:\n  script: a\n  needs: [build]\n', ['unit job: undefined need: build']],
  ['a need in a later stage', 'build:\n  stage: build\n  script: a\n  needs: [unit]\nunit:\n  script: a\n', ['build job: need unit is not defined in current or prior stages']],
  ['a need with unknown keys', 'b:\n  script: a\nunit:\n  script: a\n  needs: [{job: b, when: x}]\n', ['jobs:unit:needs:need config contains unknown keys: when']],
  ['a need of an unsupported type', 'unit:\n  script: a\n  needs: [1]\n', ['jobs:unit:needs:need has an unsupported type']],
  ['too many needs', `${Array.from({ length: 51 }, (_, i) => `j${i}:\n  script: a\n`).join('')}unit:\n  script: a\n  needs: [${Array.from({ length: 51 }, (_, i) => `j${i}`).join(', ')}]\n`,
    ['unit: one job can only need 50 others, but you have listed 51. See needs keyword documentation for more details']],
  ['an undefined dependency', 'unit:\n  script: a\n  dependencies: [build]\n', ['unit job: undefined dependency: build']],
  ['a dependency in a later stage', 'build:\n  stage: build\n  script: a\n  dependencies: [unit]\nunit:\n  script: a\n', ['build job: dependency unit is not defined in current or prior stages']],
  ['dependencies outside needs', 'b:\n  script: a\nc:\n  script: a\nunit:\n  script: a\n  needs: [b]\n  dependencies: [b, c]\n', ['jobs:unit dependencies the c should be part of needs']],
  // default, image, services, tags, retry, timeout, artifacts (§6)
  ['a key both top-level and in default', 'image: ruby\ndefault:\n  image: node\nunit:\n  script: a\n', ['image is defined in top-level and `default:` entry']],
  ['default tags as a string', 'default:\n  tags: docker\nunit:\n  script: a\n', ['default:tags config should be an array of strings']],
  ['default retry above 2', 'default:\n  retry: 5\nunit:\n  script: a\n', ['default:retry config must be less than or equal to 2']],
  ['a top-level before_script with a number', 'before_script: [1]\nunit:\n  script: a\n', ['before_script config should be a string or a nested array of strings up to 10 levels deep']],
  ['a top-level image that is a list', 'image: [ruby]\nunit:\n  script: a\n', ['image config should be a hash or a string']],
  ['unknown default keys', 'default:\n  stage: build\nunit:\n  script: a\n', ['default config contains unknown keys: stage']],
  ['an image that is a list', 'unit:\n  script: a\n  image: [ruby]\n', ['jobs:unit:image config should be a hash or a string']],
  ['an image without name', 'unit:\n  script: a\n  image: {entrypoint: [""]}\n', ["jobs:unit:image name can't be blank"]],
  ['services that are a string', 'unit:\n  script: a\n  services: postgres\n', ['jobs:unit:services config should be an array']],
  ['tags as a string', 'unit:\n  script: a\n  tags: docker\n', ['jobs:unit:tags config should be an array of strings']],
  ['retry above 2', 'unit:\n  script: a\n  retry: 3\n', ['jobs:unit:retry config must be less than or equal to 2']],
  ['retry as a string', 'unit:\n  script: a\n  retry: twice\n', ['jobs:unit:retry config has to be either an integer or a hash']],
  ['retry with an unknown reason', 'unit:\n  script: a\n  retry:\n    max: 1\n    when: [tired]\n', ['jobs:unit:retry when contains unknown values: tired']],
  ['a timeout that is not a duration', 'unit:\n  script: a\n  timeout: soon\n', ['jobs:unit:timeout config should be a duration']],
  ['artifacts with unknown keys', 'unit:\n  script: a\n  artifacts:\n    files: [a]\n', ['jobs:unit:artifacts config contains unknown keys: files']],
  ['artifacts when unknown', 'unit:\n  script: a\n  artifacts:\n    when: later\n', ['jobs:unit:artifacts when should be on_success, on_failure or always']],
  ['artifacts expire_in not a duration', 'unit:\n  script: a\n  artifacts:\n    expire_in: someday\n', ['jobs:unit:artifacts expire in should be a duration']],
  ['artifacts paths as a string', 'unit:\n  script: a\n  artifacts:\n    paths: dist\n', ['jobs:unit:artifacts paths should be an array of strings']],
  ['artifacts junit as a number', 'unit:\n  script: a\n  artifacts:\n    reports:\n      junit: 1\n', ['jobs:unit:artifacts:reports junit should be an array of strings or a string']],
  ['inherit with unknown keys', 'unit:\n  script: a\n  inherit:\n    stages: false\n', ['jobs:unit:inherit config contains unknown keys: stages']],
  // extends (§6)
  ['extends an unknown key', 'unit:\n  script: a\n  extends: .base\n', ['unit: unknown keys in `extends` (.base)']],
  ['extends something that is not a hash', '.base: [a]\nunit:\n  script: a\n  extends: .base\n', ['unit: invalid base hashes in `extends` (.base)']],
  ['extends itself', 'unit:\n  script: a\n  extends: unit\n', ['unit: circular dependency detected in `extends`']],
  ['a circular extends chain', '.a:\n  extends: .b\n.b:\n  extends: .a\nunit:\n  script: a\n  extends: .a\n', ['.a: circular dependency detected in `extends`']],
  ['extends nested deeper than 10', `${Array.from({ length: 11 }, (_, i) => `.l${i}:\n  extends: .l${i + 1}\n`).join('')}.l11:\n  script: a\nunit:\n  extends: .l0\n`,
    ['.l10: nesting too deep in `extends`']],
  // !reference (§6)
  ['a reference that is not found', 'unit:\n  script: !reference [.x, script]\n', ['!reference [".x", "script"] could not be found']],
  ['a reference with a non-string key', 'unit:\n  script: !reference [.x, 1]\n', ['!reference [".x", 1] is not valid']],
  ['a circular reference', '.a:\n  script: !reference [.b, script]\n.b:\n  script: !reference [.a, script]\nunit:\n  script: !reference [.a, script]\n', ['!reference [".b", "script"] is part of a circular chain']],
  // include: local (§6)
  ['a missing local include', 'include: missing.yml\nunit:\n  script: a\n', ['Local file `missing.yml` does not exist!']],
  ['an empty local include', 'include: empty.yml\nunit:\n  script: a\n', ['Local file `empty.yml` is empty!']],
  ['a local include without YAML extension', 'include: script.sh\nunit:\n  script: a\n', ['Included file `script.sh` does not have YAML extension!']],
  ['a local include with invalid YAML', 'include: broken.yml\nunit:\n  script: a\n', ['Included file `broken.yml` does not have valid YAML syntax!']],
  ['an include with two accessors', 'include:\n  - local: a.yml\n    template: b.yml\nunit:\n  script: a\n', ['Include `{"local":"a.yml","template":"b.yml"}` needs to match exactly one accessor!']],
];

const FILES = { 'empty.yml': '\n', 'script.sh': 'echo', 'broken.yml': 'a: b: c' };

describe('compileCiConfig: GitLab error messages', () => {
  it.each(CASES)('%s', async (_name, yaml, expected) => {
    expect(await compileErrors(yaml, context({}, FILES))).toEqual(expected);
  });
});
