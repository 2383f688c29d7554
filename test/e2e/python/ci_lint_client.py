"""python-gitlab (Debian python3-gitlab) against Anvil's CI Lint API: project.ci_lint.create with a
valid and an invalid configuration, include_jobs, validate() raising GitlabCiLintError,
project.ci_lint.get on a project whose repository is empty (404), then on the `.gitlab-ci.yml` and
the included file committed with project.files.create (default branch, sha, dry_run).
Prints one JSON line with what it saw; exits non-zero on any unexpected answer."""
import json
import os

import gitlab
from gitlab.exceptions import GitlabCiLintError, GitlabGetError

url = os.environ["ANVIL_URL"]
maintainer = gitlab.Gitlab(url, private_token=os.environ["MAINTAINER_TOKEN"])
project = maintainer.projects.get(int(os.environ["PROJECT_ID"]), lazy=True)
out = {}

ok = project.ci_lint.create({"content": "stages: [build, test]\nbuild:\n  stage: build\n  script: make\nunit:\n  script: rspec\n",
                             "include_jobs": True})
out["valid"] = {"valid": ok.valid, "errors": ok.errors, "jobs": [[j["name"], j["stage"]] for j in ok.jobs],
                "merged_yaml": ok.merged_yaml}

bad = project.ci_lint.create({"content": "unit:\n  script: rspec\n  when: later\n"})
out["invalid"] = {"valid": bad.valid, "errors": bad.errors}

try:
    project.ci_lint.validate({"content": "unit:\n  stage: nope\n  script: x\n"})
    out["validate"] = "no error"
except GitlabCiLintError as e:
    out["validate"] = str(e)

try:
    project.ci_lint.get()
    out["get_empty"] = "answered"
except GitlabGetError as e:
    out["get_empty"] = [e.response_code, e.error_message]

project.files.create({"file_path": "ci/test.yml", "branch": "main", "content": "unit:\n  script: rspec\n",
                      "commit_message": "Add test jobs"})
first = project.files.create({"file_path": ".gitlab-ci.yml", "branch": "main", "commit_message": "Add CI",
                              "content": "include: ci/test.yml\nbuild:\n  stage: build\n  script: make\n"})
head = project.files.get(".gitlab-ci.yml", ref="main").last_commit_id
repo = project.ci_lint.get(include_jobs=True)
out["get"] = {"valid": repo.valid, "jobs": [j["name"] for j in repo.jobs],
              "includes": [i["location"] for i in repo.includes], "merged_yaml": repo.merged_yaml}
at_sha = project.ci_lint.get(sha=head, dry_run=True, include_jobs=True)
out["get_dry_run"] = {"valid": at_sha.valid, "jobs": [[j["name"], j["when"]] for j in at_sha.jobs]}
try:
    project.ci_lint.get(sha=head, ref="main")
    out["get_sha_and_ref"] = "answered"
except GitlabGetError as e:
    out["get_sha_and_ref"] = [e.response_code, e.error_message]

print(json.dumps(out))
