"""python-gitlab (Debian python3-gitlab) against Anvil's project import: export a project, download
the archive, import it as a new project with override_params, refresh the import until finished,
then read issues, notes, labels and milestones of both projects. Prints one JSON line; exits
non-zero on any unexpected answer."""
import io
import json
import os
import sys
import time

import gitlab

gl = gitlab.Gitlab(os.environ["ANVIL_URL"], private_token=os.environ["TOKEN"])
source = gl.projects.get(int(os.environ["PROJECT_ID"]))

export = source.exports.create()
deadline = time.time() + 60
export.refresh()
while export.export_status != "finished":
    if time.time() > deadline:
        sys.exit("export did not finish")
    time.sleep(0.2)
    export.refresh()
archive = export.download()

output = gl.projects.import_project(io.BytesIO(archive), path="roundtrip", name="Round trip", override_params={"description": "imported copy"})
first = output["import_status"]
project_import = gl.projects.get(output["id"], lazy=True).imports.get()
while project_import.import_status not in ("finished", "failed"):
    if time.time() > deadline:
        sys.exit("import did not finish")
    time.sleep(0.2)
    project_import.refresh()
if project_import.import_status != "finished":
    sys.exit("import failed: " + str(project_import.import_error))


def snapshot(project):
    issues = []
    for issue in sorted(project.issues.list(all=True), key=lambda i: i.iid):
        notes = [n.body for n in sorted(issue.notes.list(all=True), key=lambda n: n.id) if not n.system]
        issues.append([issue.iid, issue.title, issue.state, sorted(issue.labels), issue.milestone["title"] if issue.milestone else None, issue.created_at, notes])
    return {
        "issues": issues,
        "labels": sorted(l.name for l in project.labels.list(all=True)),
        "milestones": sorted(m.title for m in project.milestones.list(all=True)),
    }


imported = gl.projects.get(output["id"])
print(json.dumps({
    "first_status": first,
    "path": imported.path_with_namespace,
    "description": imported.description,
    "source": snapshot(source),
    "imported": snapshot(imported),
}))
