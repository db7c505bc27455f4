"""Where a benchmark's CPU goes, read off the processes themselves (Linux ``/proc``, psutil):
a process tree's CPU seconds, one process's, the PostgreSQL backends serving a database, and
how a server's processes share its clients' connections. Measured from the processes, these
figures do not drift with the machine's load as wall time does (bench/http_commands.py)."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import psutil

CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(root: int) -> float:
    """User + system CPU seconds of process ``root`` and all its descendants (Linux
    ``/proc``; 0.0 where there is none)."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # the process ended meanwhile
        fields = stat[stat.rindex(")") + 2 :].split()
        pid = int(entry.name)
        parents[pid] = int(fields[1])
        times[pid] = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    total = 0.0
    for pid in times:
        ancestor = pid
        while ancestor not in (root, 0, 1) and ancestor in parents:
            ancestor = parents[ancestor]
        total += times[pid] if ancestor == root else 0.0
    return total


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of one process (0.0 when it is gone or not on this host)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


class DatabaseBackends:
    """The PostgreSQL backends serving the run's database (on this host: their CPU is part of
    what a command costs the machine), seen through one connection of the bench's own."""

    def __init__(self, url: str) -> None:
        import psycopg

        self.connection = psycopg.connect(url, autocommit=True)

    def cpu_seconds(self) -> float:
        pids = self.connection.execute(
            "SELECT pid FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
        return sum(process_cpu(pid) for (pid,) in pids)

    def close(self) -> None:
        self.connection.close()


def connections_per_process(server: int, port: int) -> list[tuple[int, int]]:
    """(pid, established connections to ``port`` it holds) for each process of the server
    holding one, most first."""
    counts: Counter[int] = Counter()
    root = psutil.Process(server)
    for process in [root, *root.children(recursive=True)]:
        try:
            held = process.net_connections(kind="tcp")
        except (psutil.NoSuchProcess, psutil.ZombieProcess):
            continue
        for connection in held:
            if connection.raddr and connection.laddr.port == port:
                counts[process.pid] += 1
    return counts.most_common()
