"""Limits count people, and the brake on wrong passwords cannot be turned against an account's owner:
over real HTTP, with the shipped limits, from several client addresses, against a real Redis."""
from __future__ import annotations

import threading

from events import keys

from .served import PASSWORD, csrf, new_address, served, sign_up, unique  # noqa: F401 (served is a fixture)

WRONG = {"password": "not the password"}


def _sign_in(client, name: str, password: str = "not the password"):
    return client.post("/accounts/session", json={"name": name, "password": password})


def test_wrong_passwords_are_bounded_per_name_and_address_and_never_lock_the_owner_out_elsewhere(served):
    name = unique("ann")
    sign_up(served.at(), name)
    guesser = served.at()
    codes = [_sign_in(guesser, name).status_code for _ in range(11)]
    assert codes == [401] * 10 + [429]
    refused = _sign_in(guesser, name, PASSWORD)             # even the right password, from there, for a while
    assert refused.status_code == 429 and refused.json()["code"] == "too_many_failures"
    assert 850 <= int(refused.headers["Retry-After"]) <= 900 and refused.json()["retry_after"] > 0
    assert _sign_in(served.at(), name, PASSWORD).status_code == 200        # another address: the owner gets in
    assert _sign_in(guesser, unique("other")).status_code == 401            # another name from there: counted apart


def test_a_flood_of_strangers_locks_a_name_for_new_browsers_but_not_for_one_that_signed_in_before(served, redis_client):
    name = unique("bob")
    laptop = served.at()
    sign_up(laptop, name)
    assert "arena_device" in laptop.cookies
    laptop.delete("/accounts/session", headers=csrf(laptop))
    redis_client.set(keys.signin_failures(name), 95, ex=3600)      # strangers' failures, as if from 95 addresses
    assert [_sign_in(served.at(), name).status_code for _ in range(5)] == [401] * 5
    stranger = _sign_in(served.at(), name, PASSWORD)
    assert stranger.status_code == 429 and int(stranger.headers["Retry-After"]) > 0      # a new browser waits ...
    assert _sign_in(laptop, name, PASSWORD).status_code == 200                         # ... the owner's does not
    assert laptop.get("/accounts/me").json()["name"] == name
    forged = served.at()
    forged.cookies.set("arena_device", laptop.cookies["arena_device"].split(".")[0] + ".forged")
    assert _sign_in(forged, name, PASSWORD).status_code == 429


def test_a_password_change_is_never_blocked_by_strangers_failures(served, redis_client):
    name = unique("cy")
    owner = served.at()
    sign_up(owner, name)
    redis_client.set(keys.signin_failures(name), 500, ex=3600)          # strangers everywhere guessed the name
    assert _sign_in(served.at(), name, PASSWORD).status_code == 429
    changed = owner.post("/accounts/me/password", json={"current": PASSWORD, "new": "a brand new password"},
                         headers=csrf(owner))
    assert changed.status_code == 200


def test_forty_racing_wrong_sign_ins_check_at_most_ten_passwords(served):
    name = unique("dee")
    sign_up(served.at(), name)
    address = new_address()
    clients = [served.at(address) for _ in range(40)]
    answers: list[int] = []
    barrier = threading.Barrier(len(clients))

    def guess(client) -> None:
        barrier.wait()
        answers.append(_sign_in(client, name).status_code)

    threads = [threading.Thread(target=guess, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [401] * 10 + [429] * 30          # 30 past the per-address limits or the brake


def test_one_account_gets_its_token_limit_whatever_credential_and_address_it_uses(served):
    account = served.at()
    sign_up(account)
    made, codes = [], []
    for i in range(12):
        caller = served.at()                                  # every request from a new address ...
        headers = {"Authorization": f"Bearer {made[-1]}"} if made and i % 2 else {}
        client = caller if headers else account              # ... alternately with the newest token and the session
        r = client.post("/accounts/me/tokens", json={"label": f"t{i}"}, headers=headers or csrf(account))
        codes.append(r.status_code)
        if r.status_code == 201:
            made.append(r.json()["token"])
    assert codes == [201] * 10 + [429] * 2
    assert int(r.headers["Retry-After"]) > 0


def test_a_seat_token_of_an_accounts_seat_counts_as_the_account(served):
    account = served.at()
    me = sign_up(account)
    game = account.post("/games", headers=csrf(account), json={
        "form": "duel", "players": [{"name": "Me", "school": "northern", "player": me["id"]},
                                    {"name": "Guest", "school": "sylvan"}]}).json()
    seat_token = game["seats"][0]["token"]
    codes = []
    for i in range(7):               # the chat's per-person limit: 5 in 10 seconds
        headers = {"Authorization": f"Bearer {seat_token}"} if i % 2 else csrf(account)
        client = served.at() if i % 2 else account
        codes.append(client.post(f"/games/{game['id']}/chat", json={"text": f"hello {i}"}, headers=headers).status_code)
    assert codes == [201] * 5 + [429] * 2


def test_vacation_mute_and_email_settings_are_limited(served):
    account = served.at()
    sign_up(account)
    other = sign_up(served.at())
    mutes = [account.post("/accounts/me/mutes", json={"player": other["id"]}, headers=csrf(account)).status_code
             for _ in range(31)]
    assert mutes[:30] == [200] * 30 and mutes[30] == 429
    email = [account.put("/accounts/me/email", json={"kinds": {"your_turn": True}}, headers=csrf(account)).status_code
             for _ in range(11)]
    assert email[:10] == [200] * 10 and email[10] == 429
    vacation = [account.post("/accounts/me/vacation", json={"days": 1}, headers=csrf(account)).status_code
                if i % 2 == 0 else account.delete("/accounts/me/vacation", headers=csrf(account)).status_code
                for i in range(6)]
    assert vacation[:5] == [201, 200, 201, 200, 201] and vacation[5] == 429
