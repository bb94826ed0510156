"""A three-node MariaDB Galera cluster on this machine's loopback, with HAProxy in front.

Each node is a `mariadbd` process with its own option file, data directory and ports; nothing
touches the server on 3306. The first node bootstraps the cluster; the others join by a state
transfer through mariadb-backup (the option file matters: mariadb-backup reads the node's
[mysqld] group from it, and refuses the same options given on the command line).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.servers import free_port

PROVIDER = Path("/usr/lib/galera/libgalera_smm.so")
MARIADBD = shutil.which("mariadbd") or "/usr/sbin/mariadbd"
INSTALL_DB = shutil.which("mariadb-install-db") or "/usr/bin/mariadb-install-db"
HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"


def missing_tools() -> list[str]:
    """What this machine lacks to run a cluster (empty when it can)."""
    needed = {
        "galera-4": PROVIDER.exists(),
        "mariadb-server": Path(MARIADBD).exists() and Path(INSTALL_DB).exists(),
        "mariadb-backup": shutil.which("mariadb-backup") is not None,
        "socat": shutil.which("socat") is not None,
        "haproxy": Path(HAPROXY).exists(),
    }
    return [name for name, present in needed.items() if not present]


@dataclass
class Node:
    number: int
    base: Path
    port: int = field(default_factory=free_port)
    gcomm_port: int = field(default_factory=free_port)
    ist_port: int = field(default_factory=free_port)
    sst_port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None

    @property
    def datadir(self) -> Path:
        return self.base / f"node{self.number}"

    @property
    def option_file(self) -> Path:
        return self.base / f"node{self.number}.cnf"

    @property
    def log(self) -> Path:
        return self.base / f"node{self.number}.err"

    @property
    def socket(self) -> Path:
        return self.base / f"node{self.number}.sock"

    def write_options(self, cluster_address: str) -> None:
        provider_options = (
            f"gmcast.listen_addr=tcp://127.0.0.1:{self.gcomm_port};"
            f"ist.recv_addr=127.0.0.1:{self.ist_port};gcache.size=64M;"
            "evs.suspect_timeout=PT3S;evs.inactive_timeout=PT6S;evs.install_timeout=PT4S"
        )
        self.option_file.write_text(
            f"""[mysqld]
user=root
datadir={self.datadir}
port={self.port}
bind-address=127.0.0.1
socket={self.socket}
pid-file={self.base / f"node{self.number}.pid"}
log-error={self.log}
innodb_buffer_pool_size=48M
innodb_log_file_size=16M
innodb_flush_log_at_trx_commit=1
skip-name-resolve
binlog_format=ROW
default_storage_engine=InnoDB
innodb_autoinc_lock_mode=2
character-set-server=utf8mb4
collation-server=utf8mb4_unicode_ci
max_connections=200
wsrep_on=ON
wsrep_provider={PROVIDER}
wsrep_cluster_name=sibol_cluster_test
wsrep_node_name=node{self.number}
wsrep_node_address=127.0.0.1:{self.gcomm_port}
wsrep_cluster_address={cluster_address}
wsrep_provider_options="{provider_options}"
wsrep_sst_method=mariabackup
wsrep_sst_auth=root:
wsrep_sst_receive_address=127.0.0.1:{self.sst_port}

[mariabackup]
user=root
socket={self.socket}
"""
        )

    def start(self, *, bootstrap: bool = False) -> None:
        self.datadir.mkdir(parents=True, exist_ok=True)
        args = [MARIADBD, f"--defaults-file={self.option_file}"]
        if bootstrap:
            args.append("--wsrep-new-cluster")
        self.proc = subprocess.Popen(  # noqa: S603
            args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush beyond what InnoDB and Galera already made durable."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.kill()

    def url(self, database: str = "") -> str:
        return f"mysql://root@127.0.0.1:{self.port}/{database}"

    def status(self, name: str) -> str | None:
        import MySQLdb  # only the cluster test needs it; it runs where mysqlclient is installed

        try:
            conn = MySQLdb.connect(host="127.0.0.1", port=self.port, user="root", connect_timeout=2)
        except MySQLdb.OperationalError:
            return None
        try:
            cur = conn.cursor()
            cur.execute("SHOW GLOBAL STATUS LIKE %s", (name,))
            row = cur.fetchone()
            return None if row is None else str(row[1])
        finally:
            conn.close()

    def wait_synced(self, cluster_size: int, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"node{self.number} exited: {self.log.read_text()[-2000:]}")
            if self.status("wsrep_local_state_comment") == "Synced" and self.status(
                "wsrep_cluster_size"
            ) == str(cluster_size):
                return
            time.sleep(0.5)
        tail = self.log.read_text()[-3000:] if self.log.exists() else ""
        raise RuntimeError(f"node{self.number} did not reach Synced in a cluster of {cluster_size}:\n{tail}")


class GaleraCluster:
    """Three nodes, bootstrapped from the first; HAProxy on one port sends to the first live node."""

    def __init__(self, base: Path, size: int = 3):
        self.base = base
        self.nodes = [Node(n, base) for n in range(1, size + 1)]
        self.proxy_port = free_port()
        self.proxy: subprocess.Popen | None = None

    @property
    def cluster_address(self) -> str:
        return "gcomm://" + ",".join(f"127.0.0.1:{n.gcomm_port}" for n in self.nodes)

    def start(self) -> GaleraCluster:
        self.base.mkdir(parents=True, exist_ok=True)
        for node in self.nodes:
            node.write_options(self.cluster_address)
        first = self.nodes[0]
        subprocess.run(  # noqa: S603
            [
                INSTALL_DB,
                f"--defaults-file={first.option_file}",
                "--auth-root-authentication-method=normal",
                "--skip-test-db",
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
        first.start(bootstrap=True)
        first.wait_synced(1)
        for count, node in enumerate(self.nodes[1:], start=2):
            node.start()
            node.wait_synced(count)
        self.start_proxy()
        return self

    def start_proxy(self) -> None:
        config = self.base / "haproxy.cfg"
        servers = "\n".join(
            f"    server node{n.number} 127.0.0.1:{n.port} check inter 500 fall 2 rise 2 on-marked-down shutdown-sessions"
            + ("" if n.number == 1 else " backup")
            for n in self.nodes
        )
        config.write_text(
            f"""global
    maxconn 512
defaults
    mode tcp
    timeout connect 2s
    timeout client 60s
    timeout server 60s
frontend mariadb
    bind 127.0.0.1:{self.proxy_port}
    default_backend galera
backend galera
{servers}
"""
        )
        self.proxy = subprocess.Popen(  # noqa: S603
            [HAPROXY, "-f", str(config), "-db"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        import MySQLdb

        deadline = time.monotonic() + 30
        while True:
            try:
                MySQLdb.connect(
                    host="127.0.0.1", port=self.proxy_port, user="root", connect_timeout=2
                ).close()
                return
            except MySQLdb.OperationalError:
                if time.monotonic() > deadline or self.proxy.poll() is not None:
                    raise RuntimeError("HAProxy did not pass connections to the cluster") from None
                time.sleep(0.2)

    def proxy_url(self, database: str) -> str:
        return f"mysql://root@127.0.0.1:{self.proxy_port}/{database}"

    def stop(self) -> None:
        if self.proxy and self.proxy.poll() is None:
            os.killpg(self.proxy.pid, signal.SIGTERM)
            self.proxy.wait(timeout=10)
        for node in reversed(self.nodes):
            node.stop()
        shutil.rmtree(self.base, ignore_errors=True)
