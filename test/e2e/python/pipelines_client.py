"""python-gitlab (Debian python3-gitlab) against Anvil's Pipelines and Jobs APIs: .gitlab-ci.yml
stored through the Repository Files API (by the owner: the default branch is protected), a pipeline created with variables, jobs listed by stage,
variables read, a job canceled and retried, the pipeline canceled, retried, renamed (metadata),
listed with filters and deleted.
Prints one JSON line with what it saw; exits non-zero on any unexpected answer."""
import json
import os

import gitlab
from gitlab.exceptions import GitlabCreateError, GitlabGetError

CI = """stages: [build, test, deploy]
build:
  stage: build
  script: [make]
unit:
  stage: test
  script: [make test]
deploy:
  stage: deploy
  script: [make deploy]
  when: manual
"""

url = os.environ["ANVIL_URL"]
dev = gitlab.Gitlab(url, private_token=os.environ["DEVELOPER_TOKEN"])
owner = gitlab.Gitlab(url, private_token=os.environ["OWNER_TOKEN"])
pid = int(os.environ["PROJECT_ID"])
project = dev.projects.get(pid, lazy=True)
out = {}

try:
    project.pipelines.create({"ref": "main"})
    out["before_ci"] = "created"
except GitlabCreateError as e:
    out["before_ci"] = [e.response_code, e.error_message]

owner.projects.get(pid, lazy=True).files.create({"file_path": ".gitlab-ci.yml", "branch": "main", "content": CI, "commit_message": "Add CI"})
pipeline = project.pipelines.create({"ref": "main", "variables": [{"key": "DEPLOY_TO", "value": "staging"}]})
out["created"] = {"status": pipeline.status, "ref": pipeline.ref, "iid": pipeline.iid, "source": pipeline.source}

by_stage = {}
for job in pipeline.jobs.list(get_all=True):
    by_stage.setdefault(job.stage, []).append([job.name, job.status])
out["jobs_by_stage"] = {k: sorted(v) for k, v in by_stage.items()}
out["variables"] = [[v.key, v.value, v.variable_type] for v in pipeline.variables.list()]

build = [j for j in pipeline.jobs.list(get_all=True) if j.name == "build"][0]
job = project.jobs.get(build.id, lazy=True)
job.cancel()
out["job_canceled"] = project.jobs.get(build.id).status
job.retry()
out["after_job_retry"] = sorted([j.name, j.status] for j in pipeline.jobs.list(get_all=True))

pipeline.cancel()
pipeline.refresh()
out["canceled"] = pipeline.status
pipeline.retry()
pipeline.refresh()
out["retried"] = pipeline.status

dev.http_put(f"/projects/{pid}/pipelines/{pipeline.id}/metadata", post_data={"name": "Staging deploy"})
out["renamed"] = project.pipelines.get(pipeline.id).name

second = project.pipelines.create({"ref": "main"})
out["list_all"] = [p.id == pipeline.id for p in project.pipelines.list(get_all=True)]
out["list_filtered"] = [p.id == pipeline.id for p in project.pipelines.list(ref="main", order_by="id", sort="asc", name="Staging deploy")]

owner.projects.get(pid, lazy=True).pipelines.delete(second.id)
try:
    project.pipelines.get(second.id)
    out["deleted"] = "still there"
except GitlabGetError as e:
    out["deleted"] = [e.response_code, e.error_message]

print(json.dumps(out))
