"""python-gitlab (Debian python3-gitlab) against Anvil's project export: schedule, refresh until
finished, download, and read the archive. Prints one JSON line with what it saw; exits non-zero on
any unexpected answer."""
import io
import json
import os
import sys
import tarfile
import time

import gitlab

gl = gitlab.Gitlab(os.environ["ANVIL_URL"], private_token=os.environ["TOKEN"])
project = gl.projects.get(int(os.environ["PROJECT_ID"]))

export = project.exports.create({"description": "exported by python-gitlab"})
export.refresh()
first = export.export_status
deadline = time.time() + 60
while export.export_status != "finished":
    if export.export_status == "failed" or time.time() > deadline:
        sys.exit("export did not finish: " + export.export_status)
    time.sleep(0.2)
    export.refresh()

data = export.download()
archive = tarfile.open(fileobj=io.BytesIO(data), mode="r:gz")


def read(name):
    return archive.extractfile(name).read().decode("utf-8")


def ndjson(name):
    return [json.loads(line) for line in read(name).splitlines() if line]


issues = ndjson("./tree/project/issues.ndjson")
print(json.dumps({
    "first_status": first,
    "links": sorted(export._links.keys()),
    "names": archive.getnames(),
    "version": read("./VERSION"),
    "description": json.loads(read("./tree/project.json"))["description"],
    "issues": [[i["iid"], i["title"], len([n for n in i["notes"] if not n["system"]]), [l["label"]["title"] for l in i["label_links"]]] for i in issues],
    "labels": [l["title"] for l in ndjson("./tree/project/labels.ndjson")],
    "milestones": [m["title"] for m in ndjson("./tree/project/milestones.ndjson")],
}))
