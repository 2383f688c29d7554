"""python-gitlab (Debian python3-gitlab) against Anvil's users and e-mail addresses: an
administrator edits a user through save(), adds an identity and finds the user by it, adds,
lists and deletes a user's addresses; the user manages their own addresses through gl.user.
Prints one JSON line with what it saw; exits non-zero on any unexpected answer."""
import json
import os

import gitlab
from gitlab.exceptions import GitlabCreateError

url = os.environ["ANVIL_URL"]
admin = gitlab.Gitlab(url, private_token=os.environ["ADMIN_TOKEN"])
me = gitlab.Gitlab(url, private_token=os.environ["USER_TOKEN"])
uid = int(os.environ["USER_ID"])
out = {}

user = admin.users.get(uid)
user.bio = "Py bio"
user.organization = "Py org"
user.save()
again = admin.users.get(uid)
out["edited"] = [again.bio, again.organization]

user.provider = "github"
user.extern_uid = "py-67890"
user.save()
out["by_identity"] = [u.id for u in admin.users.list(extern_uid="py-67890", provider="github")]

added = user.emails.create({"email": "py-admin-added@example.com", "skip_confirmation": True})
out["admin_added_confirmed"] = added.confirmed_at is not None
out["admin_list"] = [e.email for e in user.emails.list()]
added.delete()
out["admin_after_delete"] = [e.email for e in user.emails.list()]

me.auth()
own = me.user.emails.create({"email": "Py-Own@Example.com"})
out["own"] = [own.email, own.confirmed_at]
out["own_get"] = me.user.emails.get(own.id).email
try:
    me.user.emails.create({"email": "py-own@example.com"})
    out["duplicate"] = None
except GitlabCreateError as e:
    out["duplicate"] = [e.response_code, e.error_message]
me.user.emails.delete(own.id)
out["own_after_delete"] = [e.email for e in me.user.emails.list()]
print(json.dumps(out))
