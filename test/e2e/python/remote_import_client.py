"""python-gitlab (Debian python3-gitlab) against Anvil's remote import: remote_import() of an archive
served at ARCHIVE_URL, refresh the import until finished, read its issues; then remote_import() of
BAD_URL, whose refusal is printed. Prints one JSON line; exits non-zero on any unexpected answer."""
import json
import os
import sys
import time

import gitlab

gl = gitlab.Gitlab(os.environ["ANVIL_URL"], private_token=os.environ["TOKEN"])

output = gl.projects.remote_import(os.environ["ARCHIVE_URL"], path="fetched", name="Fetched")
first = output["import_status"]
project_import = gl.projects.get(output["id"], lazy=True).imports.get()
deadline = time.time() + 60
while project_import.import_status not in ("finished", "failed"):
    if time.time() > deadline:
        sys.exit("import did not finish")
    time.sleep(0.2)
    project_import.refresh()
issues = gl.projects.get(output["id"]).issues.list(get_all=True)

try:
    gl.projects.remote_import(os.environ["BAD_URL"], path="refused")
    sys.exit("a text/html URL was accepted")
except gitlab.exceptions.GitlabImportError as e:
    refused = [e.response_code, e.error_message]

print(json.dumps({
    "first_status": first,
    "status": project_import.import_status,
    "issues": sorted([i.iid, i.title] for i in issues),
    "refused": refused,
}))
