"""Reaching a Dask cluster for ``colorit bench --scheduler``: ``tcp://HOST:PORT`` (a
running ``dask scheduler`` and its ``dask worker`` processes) or ``local:N`` (a
LocalCluster of N worker processes on 127.0.0.1, for its dashboard).

``parse_scheduler`` checks the option's value (the command line calls it before any
work), ``require_dask`` says how to install Dask when it is missing, and
``DaskConnection`` is the client of the scheduler with its workers checked to run this
colorit (the same version: ``dask_worker.worker_version``) and described for the run's
first line. A scheduler that does not answer within ``CONNECT_TIMEOUT_S``, one without
workers after ``WORKERS_WAIT_S`` and a worker of another version are one-line errors.
The runner over a connection is ``colorit.batch.dask_client``'s.

Dask is an optional extra (``colorit[cluster]``): this module imports it only inside
functions.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from ..errors import ColoritError
from ..log import plural
from ..machine import available_cpus
from . import dask_worker

INSTALL_HINT = "--scheduler needs Dask: pip install 'colorit[cluster]' (or bin/colorit, which installs it)"
#: The module a ``local:N`` cluster's workers preload (its ``dask_setup`` leaves Ctrl-C
#: to the bench): a string, which no import checker follows.
WORKER_PRELOAD = "colorit.batch.dask_worker"
#: Seconds to reach the scheduler before giving up (Dask would keep trying for 30 s).
CONNECT_TIMEOUT_S = 5.0
#: Seconds to wait for a first worker on a scheduler that has none.
WORKERS_WAIT_S = 15.0
#: The network protocols of Dask's scheduler addresses.
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")


class DaskMissing(ColoritError):
    """``--scheduler`` without Dask installed."""


class SchedulerUnreachable(ColoritError):
    """No scheduler at the address, or one without workers (nothing was done)."""


def require_dask() -> None:
    """Fail with how to install Dask unless ``dask.distributed`` can be imported."""
    try:
        import dask  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        raise DaskMissing(INSTALL_HINT) from None


def parse_scheduler(text: str) -> str:
    """A ``--scheduler`` value: ``local``, ``local:N`` (N worker processes here) or a
    scheduler address ``SCHEME://HOST:PORT`` (``tcp://10.0.0.5:8786``)."""
    spec = text.strip()
    if spec == "local":
        return f"local:{available_cpus()}"
    if spec.startswith("local:"):
        n = spec[len("local:") :]
        if not n.isdigit() or int(n) < 1:
            raise ColoritError(f"scheduler {text!r}: local:N needs a whole number of workers, at least 1")
        return f"local:{int(n)}"
    scheme, sep, rest = spec.partition("://")
    host, colon, port = rest.rpartition(":")
    if not sep or scheme not in SCHEMES or not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ColoritError(f"scheduler {text!r} is not an address such as tcp://HOST:8786, nor local:N")
    return spec



def _local_cluster(workers: int) -> Any:
    """A LocalCluster of ``workers`` one-thread processes, every port on 127.0.0.1."""
    import dask
    from distributed import LocalCluster

    try:
        # Dask's sampling profiler takes the GIL every 10 ms from the searches: boards
        # took 10% longer (the dashboard has all but its Profile page)
        with dask.config.set({"distributed.worker.profile.enabled": False}):
            return LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                # loopback only, on a free port (without bokeh it serves no dashboard)
                dashboard_address="127.0.0.1:0",
                silence_logs=logging.ERROR,
                preload=[WORKER_PRELOAD],  # dask_setup: Ctrl-C is the bench's
            )
    except Exception as e:  # noqa: BLE001 (one line, whatever Dask raised)
        cause = e.__cause__ or e
        why = " ".join(f"{type(cause).__name__}: {cause}".split())
        raise SchedulerUnreachable(f"could not start a local Dask cluster of {plural(workers, 'worker')} ({why})") from None


def quiet_dask_logs() -> None:
    """Only Dask's critical log lines in this process."""
    logging.getLogger("distributed").setLevel(logging.CRITICAL)


def _has_bokeh() -> bool:
    import importlib.util

    return importlib.util.find_spec("bokeh") is not None


class DaskConnection:
    """A client of the scheduler (and the LocalCluster of ``local:N``), its workers
    checked to run this colorit."""

    def __init__(self, client: Any, spec: str, cluster: Any = None) -> None:
        self.client = client
        self.spec = spec
        self.cluster = cluster  #: the LocalCluster of ``local:N`` (closed with the connection)
        self.address: str = client.scheduler.address if cluster is None else cluster.scheduler_address
        self.closed = False

    @classmethod
    def open(cls, spec: str, *, connect_timeout: float = CONNECT_TIMEOUT_S, workers_wait: float = WORKERS_WAIT_S,
             quiet_logs: bool = True) -> DaskConnection:
        """Connect to the scheduler at ``spec`` (a ``parse_scheduler`` value), or start a
        LocalCluster for ``local:N``; check that the workers can run colorit."""
        require_dask()
        from distributed import Client

        if quiet_logs:
            quiet_dask_logs()
        spec = parse_scheduler(spec)
        cluster = None
        if spec.startswith("local:"):
            cluster = _local_cluster(int(spec.split(":", 1)[1]))
            try:
                client = Client(cluster, set_as_default=False)
            except BaseException:
                cluster.close()
                raise
        else:
            client = _connect(spec, connect_timeout)
        conn = cls(client, spec, cluster)
        try:
            conn.check_workers(workers_wait)
        except BaseException:
            conn.close()
            raise
        return conn

    def check_workers(self, wait_s: float) -> None:
        from .. import __version__

        try:
            self.client.wait_for_workers(1, timeout=wait_s)
        except TimeoutError:
            raise SchedulerUnreachable(
                f"the Dask scheduler at {self.spec} has no workers (waited {wait_s:g} s); start some with 'dask worker {self.address}'"
            ) from None
        versions = self.client.run(dask_worker.worker_version, on_error="return")
        for address, version in versions.items():
            if isinstance(version, BaseException):
                why = " ".join(f"{type(version).__name__}: {version}".split())
                raise SchedulerUnreachable(f"the Dask worker {address} cannot run colorit ({why}); install colorit on every worker")
            if version != __version__:
                raise SchedulerUnreachable(
                    f"the Dask worker {address} runs colorit {version}, this is {__version__}; install the same version everywhere"
                )

    def worker_threads(self) -> dict[str, int]:
        """Each worker's thread count, as the client last heard from the scheduler."""
        info = self.client.scheduler_info()
        return {addr: int(w.get("nthreads", 1)) for addr, w in info.get("workers", {}).items()}

    @property
    def dashboard(self) -> str | None:
        if self.cluster is not None and not _has_bokeh():
            return None
        with contextlib.suppress(Exception):
            return str(self.client.dashboard_link)
        return None

    def describe(self) -> str:
        threads = self.worker_threads()
        what = "Dask LocalCluster on 127.0.0.1" if self.cluster is not None else f"Dask scheduler {self.address}"
        board = self.dashboard
        if board is None and self.cluster is not None:
            dash = "dashboard off (it needs bokeh: pip install bokeh)"
        else:
            dash = f"dashboard {board}" if board else "no dashboard"
        return f"{what}: {plural(len(threads), 'worker')}, {plural(sum(threads.values()), 'thread')}, {dash}"

    def close(self) -> None:
        """Close the client (and the LocalCluster it started); again: nothing."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(Exception):
            self.client.close()
        if self.cluster is not None:
            with contextlib.suppress(Exception):
                self.cluster.close()


def _connect(spec: str, timeout: float) -> Any:
    """A client of the scheduler at ``spec``, or one line saying why there is none."""
    from distributed import Client

    try:
        return Client(spec, timeout=timeout, set_as_default=False)
    except Exception as e:  # noqa: BLE001 (whatever the connection did, one line)
        why = " ".join(str(e).split()) or type(e).__name__
        if "Timed out" in why:
            why = f"no answer within {timeout:g} s"
        elif isinstance(e, MemoryError):  # a frame length read from whatever answered
            why = "what answers there does not speak Dask's protocol"
        raise SchedulerUnreachable(f"cannot reach the Dask scheduler at {spec} ({why}); is 'dask scheduler' running there?") from None


__all__ = [
    "INSTALL_HINT",
    "DaskConnection",
    "DaskMissing",
    "SchedulerUnreachable",
    "parse_scheduler",
    "require_dask",
]
