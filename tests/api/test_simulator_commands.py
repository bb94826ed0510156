"""The simulator takes the console's commands over HTTP, obeys them and answers each: a real
server in a thread, the simulator's clock run fast (minutes of simulated time in a moment)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from sibol.extensions import db
from sibol.models import RoleId
from sibol.models.commands import Command
from sibol.models.telemetry import Reading
from sibol.telemetry.simulate import REBOOT_SECONDS
from sibol.telemetry.simulator import run
from tests.factories import make_account, make_machine, token_for


class FastClock:
    """The simulator's clock and sleep: sleeping moves time on at once; `at` runs a callback
    once simulated time reaches it (a person sending a command mid-run)."""

    def __init__(self) -> None:
        self.t = 0.0
        self.origin = datetime.now(UTC).replace(tzinfo=None) - timedelta(minutes=3)
        self.actions: list[tuple[float, object]] = []

    def clock(self) -> float:
        return self.t

    def wall(self) -> datetime:
        return self.origin + timedelta(seconds=self.t)

    def sleep(self, seconds: float) -> None:
        self.t += seconds
        for when, action in list(self.actions):
            if self.t >= when:
                self.actions.remove((when, action))
                action()


def send(client, machine_id: int, **body) -> int:
    staff = make_account(role=RoleId.OPERATOR)
    res = client.post(
        f"/api/machines/{machine_id}/commands",
        json=body,
        headers={"Authorization": f"Bearer {token_for(staff)}"},
    )
    assert res.status_code == 201, res.json
    return res.json["id"]


def simulate(server, fast: FastClock, seconds: float, lines: list[str]) -> int:
    return run(server, 1, 5.0, seconds, 0.0, 0.0, 11, echo=lines.append, poll=2.0,
               clock=fast.clock, sleep=fast.sleep, wall=fast.wall)  # fmt: skip


def stored(machine_id: int) -> list[Reading]:
    db.session.rollback()  # a fresh transaction: see the server's writes
    return list(
        db.session.scalars(select(Reading).where(Reading.machine_id == machine_id).order_by(Reading.ts))
    )


def command(cid: int) -> Command:
    db.session.rollback()
    return db.session.get(Command, cid)


def test_generator_stop_and_set_interval_show_in_the_readings_and_are_answered(app, client, server):
    machine = make_machine("Digester Sim")
    stop = send(client, machine.id, command="generator", value="stop")
    pace = send(client, machine.id, command="set_interval", value=30)
    stir = send(client, machine.id, command="stir", value=1)
    fast, lines = FastClock(), []
    simulate(server, fast, 140, lines)
    rows = stored(machine.id)
    assert len(rows) == 5  # at 0, 30, 60, 90 and 120 s instead of every 5 s
    assert {(r.ts - rows[0].ts).total_seconds() for r in rows} == {0, 30, 60, 90, 120}
    assert all(r.voltage_v == 0.0 and r.current_a == 0.0 for r in rows)
    # Stirring for a minute raised the pressure of the readings inside that minute (simulate.py).
    assert [command(c).status for c in (stop, pace, stir)] == ["executed"] * 3
    assert command(stop).detail == "Generator stopped" and command(pace).detail == "Reading every 30 seconds"
    assert any(f"command #{stir} executed (Stirring for 1 minutes)" in line for line in lines)


def test_a_reboot_leaves_the_simulator_silent_for_a_few_seconds_then_it_answers(app, client, server):
    machine = make_machine("Digester Reboot")
    fast, lines = FastClock(), []
    sent: list[int] = []
    fast.actions.append((21.0, lambda: sent.append(send(client, machine.id, command="reboot"))))
    simulate(server, fast, 60, lines)
    rows = stored(machine.id)
    gaps = [(b.ts - a.ts).total_seconds() for a, b in zip(rows, rows[1:], strict=False)]
    assert max(gaps) >= 5 + REBOOT_SECONDS - 3, gaps  # the readings due while it rebooted were not sent
    assert sorted(gaps)[:-1] == [5.0] * (len(gaps) - 1)  # otherwise every 5 s
    cmd = command(sent[0])
    assert cmd.status == "executed" and cmd.detail.startswith("Rebooted")
    answered = [n for n, line in enumerate(lines) if f"command #{sent[0]} executed" in line]
    obeyed = [n for n, line in enumerate(lines) if f"obeys #{sent[0]} reboot" in line]
    assert answered and obeyed and answered[0] > obeyed[0]


def test_the_cli_takes_a_poll_option(app, server):
    make_machine("Digester Cli")
    result = app.test_cli_runner().invoke(
        args=["simulate-devices", "--machines", "1", "--interval", "0.2", "--duration", "0.3",
              "--base-url", server, "--fault-rate", "0", "--silence-rate", "0", "--poll", "0.1"]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Stored" in result.output
