"""Getting an account back, through a real SMTP server (aiosmtpd), real RQ workers and real HTTP: an
address is confirmed by its mailed link before any other mail goes there; a forgotten password is
reset through a signed, single-use, expiring link; asking answers the same whether or not the name
or address exists; a reset ends every session and token; both are limited."""
from __future__ import annotations

import re
import threading
import uuid
from datetime import datetime, timedelta, timezone
from urllib.parse import urlsplit

import pytest
from freezegun import freeze_time

from tests.workers.helpers import run_worker
from tests.workers.test_email import Inbox, smtp  # noqa: F401 (smtp is a fixture: aiosmtpd in this process)

from .served import csrf, serve, sign_up  # noqa: F401 (a fixture)

DB = 7                  # the queue this test's workers run: its own database


@pytest.fixture
def mailed(serve, redis_server, smtp):
    """(the served app on its own database, the SMTP inbox, a function that runs the workers)."""
    queue = redis_server.client(db=DB)
    yield serve(REDIS_URL=f"redis://127.0.0.1:{redis_server.port}/{DB}"), smtp, lambda: run_worker(queue)
    queue.close()


def _link(inbox: Inbox, to: str, subject: str) -> str:
    [message] = [m for m in inbox.messages if m["To"] == to and m["Subject"] == subject][-1:]
    url = re.search(r"http://arena\.test(\S+)", message.get_content()).group(1)
    return url


def _confirmed(served, inbox: Inbox, work) -> tuple:
    """A signed-up browser whose address is confirmed through its mailed link: (client, account, address)."""
    me = served.at()
    account = sign_up(me)
    address = f"{uuid.uuid4().hex[:8]}@example.test"
    me.put("/accounts/me/email", json={"address": address}, headers=csrf(me))
    work()
    assert served.at().get(_link(inbox, address, "Confirm your e-mail address")).status_code == 200
    return me, account, address


def test_an_address_is_confirmed_by_its_link_before_mail_goes_there(mailed):
    served, inbox, work = mailed
    me = served.at()
    sign_up(me)
    address = f"{uuid.uuid4().hex[:8]}@example.test"
    prefs = me.put("/accounts/me/email", json={"address": address}, headers=csrf(me)).json()
    assert prefs["address"] == address and prefs["verified"] is False
    work()
    link = _link(inbox, address, "Confirm your e-mail address")
    forged = link[:-3] + ("aaa" if not link.endswith("aaa") else "bbb")
    assert served.at().get(forged).status_code == 404
    opened = served.at().get(link)
    assert opened.status_code == 200 and "confirmed" in opened.text
    assert served.at().get(link).status_code == 404                          # once only
    assert me.get("/accounts/me/email").json()["verified"] is True
    later = f"{uuid.uuid4().hex[:8]}@example.test"
    assert me.put("/accounts/me/email", json={"address": later}, headers=csrf(me)).json()["verified"] is False


def test_a_password_is_reset_by_its_link_once_and_everything_of_the_account_ends(mailed):
    served, inbox, work = mailed
    me, account, address = _confirmed(served, inbox, work)
    api = me.post("/accounts/me/tokens", json={"label": "bot"}, headers=csrf(me)).json()["token"]
    stranger = served.at()
    answers = [stranger.post("/accounts/password-reset", json=body) for body in
               ({"name": account["name"]}, {"name": "nobody" + uuid.uuid4().hex[:6]},
                {"address": "nobody@example.test"})]
    assert {a.status_code for a in answers} == {202} and len({a.text for a in answers}) == 1
    work()
    link = _link(inbox, address, "Reset your password")
    assert len([m for m in inbox.messages if m["Subject"] == "Reset your password"]) == 1
    assert "password" in served.at().get(link).text                          # the page with its form
    token = dict(p.split("=", 1) for p in urlsplit(link).query.split("&"))["token"]
    done = served.at().post("/accounts/password-reset/confirm", json={"token": token, "password": "brand new words"})
    assert done.status_code == 200 and done.json() == {"sessions_closed": 1, "tokens_revoked": 1}
    again = served.at().post("/accounts/password-reset/confirm", json={"token": token, "password": "other words 2"})
    assert again.status_code == 400 and again.json()["code"] == "link_not_valid"
    assert me.get("/accounts/me").status_code == 401
    assert served.at().get("/accounts/me", headers={"Authorization": f"Bearer {api}"}).status_code == 401
    signing_in = served.at().post("/accounts/session", json={"name": account["name"], "password": "brand new words"})
    assert signing_in.status_code == 200


def test_reset_links_expire_and_resets_are_limited(mailed):
    served, inbox, work = mailed
    me, account, address = _confirmed(served, inbox, work)
    asker = served.at()
    codes = [asker.post("/accounts/password-reset", json={"address": address}).status_code for _ in range(6)]
    assert codes == [202] * 5 + [429]                                        # per client address
    work()
    assert len([m for m in inbox.messages if m["To"] == address and m["Subject"] == "Reset your password"]) == 3
    token = _link(inbox, address, "Reset your password").split("token=")[1]
    with freeze_time(datetime.now(timezone.utc) + timedelta(hours=1, minutes=1)):
        late = served.at().post("/accounts/password-reset/confirm", json={"token": token, "password": "too late now"})
    assert late.status_code == 400


def test_two_racing_uses_of_one_link_reset_once(mailed):
    served, inbox, work = mailed
    _, _, address = _confirmed(served, inbox, work)
    served.at().post("/accounts/password-reset", json={"address": address})
    work()
    token = _link(inbox, address, "Reset your password").split("token=")[1]
    answers: list[int] = []
    barrier = threading.Barrier(6)

    def use(i: int) -> None:
        barrier.wait()
        answers.append(served.at().post("/accounts/password-reset/confirm",
                                        json={"token": token, "password": f"racer number {i}"}).status_code)

    threads = [threading.Thread(target=use, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [200] + [400] * 5
