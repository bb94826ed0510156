"""Claim races against a live server (gunicorn, two workers): two claims spending the same points
-> one refused; two redemptions of one code at the same moment -> one 200 and one 409."""

from __future__ import annotations

import requests
from sqlalchemy import create_engine, text

from tests.support.races import at_once
from tests.support.servers import AppServer, drop_database, fresh_database, server_env, setup_database

ROUNDS = 4


def test_two_claims_and_two_redemptions_at_once(tmp_path):
    url = fresh_database(tmp_path, "claims")
    env = server_env(url)
    setup_database(env)
    server = AppServer(env, workers=2, log=tmp_path / "server.log").start()
    engine = create_engine(url.replace("mysql://", "mysql+mysqldb://", 1))
    try:
        base = server.url

        def token(username: str, password: str) -> dict:
            res = requests.post(
                f"{base}/api/auth/login", json={"username": username, "password": password}, timeout=10
            )
            return {"Authorization": f"Bearer {res.json()['token']}"}

        admin = token("admin", "Admin-pass1!")
        made = requests.post(
            f"{base}/api/admin/create",
            json={
                "FirstName": "Lita",
                "LastName": "Ramos",
                "Email": "lita@example.test",
                "Roles": 4,
                "Username": "lita.home",
                "Password": "Lita-pass1!",
            },
            headers=admin,
            timeout=10,
        )
        assert made.status_code == 201, made.text
        home = token("lita.home", "Lita-pass1!")
        reward = requests.post(
            f"{base}/api/household/rewards", json={"reward": "Rice", "points": 100}, headers=admin, timeout=10
        )
        reward_id = reward.json()["reward"]["id"]
        me = requests.get(f"{base}/api/me/household", headers=home, timeout=10).json()
        member_id = me["household"]["id"]

        def claim() -> requests.Response:
            return requests.post(
                f"{base}/api/me/household/claims", json={"rewardId": reward_id}, headers=home, timeout=30
            )

        for n in range(ROUNDS):
            with engine.begin() as conn:  # 150 points: enough for one Rice, not two
                conn.execute(
                    text("UPDATE household_members SET points = 150 WHERE id = :id"), {"id": member_id}
                )
            answers = at_once([claim, claim])
            assert sorted(r.status_code for r in answers) == [201, 409], [r.text for r in answers]
            code = next(r for r in answers if r.status_code == 201).json()["claim"]["code"]
            assert requests.get(f"{base}/api/me/household", headers=home, timeout=10).json()["points"] == 50

            def redeem(code: str = code) -> requests.Response:
                return requests.post(
                    f"{base}/api/household/claims/redeem", json={"code": code}, headers=admin, timeout=30
                )

            answers = at_once([redeem, redeem])
            assert sorted(r.status_code for r in answers) == [200, 409], (n, [r.text for r in answers])
        with engine.connect() as conn:
            states = conn.execute(text("SELECT state, COUNT(*) FROM reward_claims GROUP BY state")).all()
            assert dict(states) == {"redeemed": ROUNDS}
            assert (
                conn.execute(
                    text("SELECT points FROM household_members WHERE id = :id"), {"id": member_id}
                ).scalar()
                == 50
            )
    finally:
        server.stop()
        engine.dispose()
        drop_database(url)
