"""Backup and restore give back the same data (SQLite online backup; mysqldump on MariaDB)."""

from __future__ import annotations

import subprocess

from tests.support.servers import ROOT, drop_database, fresh_database, server_env, setup_database


def test_verify_restore_script_proves_identical_contents(tmp_path):
    url = fresh_database(tmp_path, "backup")
    env = server_env(url, SIBOL_SAMPLE_DATA="1")
    try:
        setup_database(env)
        result = subprocess.run(
            [str(ROOT / "scripts" / "verify-restore.sh")],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        assert "Restore verified:" in result.stdout and "identical contents" in result.stdout
    finally:
        drop_database(url)


def test_digest_changes_when_data_changes(app):
    from sibol.data.backup import digest
    from tests.factories import make_account

    before = digest()
    make_account()
    after = digest()
    assert before["accounts"] != after["accounts"]
    assert after["accounts"].startswith("1:")
    assert {k: v for k, v in before.items() if k not in ("accounts", "account_modules")} == {
        k: v for k, v in after.items() if k not in ("accounts", "account_modules")
    }
