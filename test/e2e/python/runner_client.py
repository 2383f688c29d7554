"""python-gitlab (Debian python3-gitlab) against Anvil's runner and test report APIs: a created
runner's token verified, the removed registration-token route refused with 410, a failed pipeline's
test report and summary read, and its job's log.
Prints one JSON line with what it saw; exits non-zero on any unexpected answer."""
import json
import os

import gitlab
from gitlab.exceptions import GitlabCreateError

url = os.environ["ANVIL_URL"]
gl = gitlab.Gitlab(url, private_token=os.environ["TOKEN"])
project = gl.projects.get(int(os.environ["PROJECT_ID"]), lazy=True)
out = {}

gl.runners.verify(os.environ["RUNNER_TOKEN"])
out["verified"] = True
try:
    gl.runners.create({"token": "GR1348941legacy", "description": "legacy"})
    out["legacy"] = "created"
except GitlabCreateError as e:
    out["legacy"] = [e.response_code, e.error_message]

pipeline = project.pipelines.get(int(os.environ["PIPELINE_ID"]))
report = pipeline.test_report.get()
out["report"] = [report.total_count, report.success_count, report.failed_count, report.skipped_count, report.error_count]
out["suites"] = [[s["name"], [c["name"] for c in s["test_cases"]]] for s in report.test_suites]
summary = pipeline.test_report_summary.get()
out["summary"] = summary.total
job = project.jobs.get(int(os.environ["JOB_ID"]))
out["trace_has_upload"] = b"Uploading artifacts" in job.trace()
print(json.dumps(out))
