"""The cluster test runs only when asked (`make test-cluster` sets SIBOL_CLUSTER_TEST=1)."""

from __future__ import annotations

import os

import pytest

from tests.cluster.galera import GaleraCluster, missing_tools


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    if os.environ.get("SIBOL_CLUSTER_TEST") != "1":
        pytest.skip("the Galera cluster test runs with `make test-cluster`")
    missing = missing_tools()
    if missing:
        pytest.fail(f"the cluster test needs Debian's {', '.join(missing)}")
    try:
        import MySQLdb  # noqa: F401
    except ImportError:
        pytest.fail("the cluster test needs mysqlclient (default-libmysqlclient-dev, pkg-config)")
    cluster = GaleraCluster(tmp_path_factory.mktemp("galera"))
    try:
        yield cluster.start()
    finally:
        cluster.stop()
