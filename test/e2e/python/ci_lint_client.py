"""python-gitlab (Debian python3-gitlab) against Anvil's CI Lint API: project.ci_lint.create with a
valid and an invalid configuration, include_jobs, validate() raising GitlabCiLintError, and
project.ci_lint.get on a project whose repository is empty (404).
Prints one JSON line with what it saw; exits non-zero on any unexpected answer."""
import json
import os

import gitlab
from gitlab.exceptions import GitlabCiLintError, GitlabGetError

url = os.environ["ANVIL_URL"]
dev = gitlab.Gitlab(url, private_token=os.environ["DEVELOPER_TOKEN"])
project = dev.projects.get(int(os.environ["PROJECT_ID"]), lazy=True)
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

print(json.dumps(out))
