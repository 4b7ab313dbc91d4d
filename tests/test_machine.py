"""``colorit.machine``: what this machine gives a process, read from the operating
system (a container's cgroup limits win over the host's, v1 and v2, on the process's own
group and those above it), sizes as the command line writes them, and the one rule that
splits memory among workers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from colorit import ColoritError
from colorit.limits import check_memory
from colorit.machine import (
    CGROUP_ROOT_ENV,
    MIN_MEMORY,
    available_cpus,
    cgroup_cpu_limit,
    cgroup_memory_limit,
    default_memory_bytes,
    format_size,
    machine_memory,
    memory_share,
    physical_memory,
)


@pytest.mark.parametrize(
    ("size", "text"),
    [(25769803776, "24G"), (1610612736, "1.5G"), (1 << 40, "1T"), (3 << 20, "3M"), (1536, "1.5K"), (100, "100")],
)
def test_format_size(size: int, text: str) -> None:
    assert format_size(size) == text


@pytest.mark.parametrize(
    ("total", "workers", "share"),
    [(8 << 30, 4, 2 << 30), (8 << 30, 1, 8 << 30), (10, 3, MIN_MEMORY), (3 << 20, 0, 3 << 20), ((3 << 30) + 2, 3, 1 << 30)],
)
def test_memory_share_is_an_equal_part_never_below_the_minimum(total: int, workers: int, share: int) -> None:
    assert memory_share(total, workers) == share


# --------------------------------------------------------------------------- containers (cgroups)

GIB = 1 << 30


def _cores() -> int:
    return len(os.sched_getaffinity(0))


def fake_cgroup(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n")
    return root


@pytest.fixture
def cgroup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cgroup root the limits are read from."""
    root = tmp_path / "cgroup"
    root.mkdir()
    monkeypatch.setenv(CGROUP_ROOT_ENV, str(root))
    return root


def test_cgroup_v2_memory_and_cpu_limits(cgroup: Path) -> None:
    fake_cgroup(cgroup, {"memory.max": str(GIB), "cpu.max": "150000 100000"})
    assert cgroup_memory_limit() == GIB
    assert cgroup_cpu_limit() == 1.5
    assert machine_memory() == min(GIB, physical_memory())
    assert default_memory_bytes() == min(GIB, physical_memory()) // 2
    assert available_cpus() == min(2, _cores())


def test_cgroup_v1_memory_and_cpu_limits(cgroup: Path) -> None:
    fake_cgroup(
        cgroup,
        {
            "memory/memory.limit_in_bytes": str(GIB),
            "cpu/cpu.cfs_quota_us": "50000",
            "cpu/cpu.cfs_period_us": "100000",
        },
    )
    assert cgroup_memory_limit() == GIB
    assert cgroup_cpu_limit() == 0.5
    assert default_memory_bytes() == min(GIB, physical_memory()) // 2
    assert available_cpus() == 1


def test_cgroup_v1_cpu_under_the_joint_cpu_cpuacct_folder(cgroup: Path) -> None:
    fake_cgroup(cgroup, {"cpu,cpuacct/cpu.cfs_quota_us": "100000", "cpu,cpuacct/cpu.cfs_period_us": "100000"})
    assert cgroup_cpu_limit() == 1.0
    assert available_cpus() == 1


@pytest.mark.parametrize(
    "files",
    [
        {"memory.max": "max", "cpu.max": "max 100000"},
        {"memory/memory.limit_in_bytes": "9223372036854771712", "cpu/cpu.cfs_quota_us": "-1", "cpu/cpu.cfs_period_us": "100000"},
    ],
    ids=["v2-max", "v1-unlimited"],
)
def test_cgroup_without_limits_leaves_the_machine_s(cgroup: Path, files: dict[str, str]) -> None:
    fake_cgroup(cgroup, files)
    assert cgroup_memory_limit() is None
    assert cgroup_cpu_limit() is None
    assert machine_memory() == physical_memory()
    assert default_memory_bytes() == physical_memory() // 2
    assert available_cpus() == _cores()


def test_no_cgroup_files_leaves_the_machine_s(cgroup: Path) -> None:
    assert cgroup_memory_limit() is None and cgroup_cpu_limit() is None
    assert machine_memory() == physical_memory()
    assert available_cpus() == _cores()


def test_machine_memory_is_read_again_after_its_ttl(cgroup: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bench checks every board's limits: the cgroup files are read once a second at
    most, and again as soon as that has passed (a container's limit may change)."""
    from colorit import machine as limits

    assert machine_memory() == physical_memory()
    fake_cgroup(cgroup, {"memory.max": str(GIB)})
    assert machine_memory() == physical_memory()  # kept
    monkeypatch.setattr(limits, "MACHINE_MEMORY_TTL", 0.0)
    assert machine_memory() == min(GIB, physical_memory())


def test_a_container_s_limit_caps_max_memory_naming_the_container(cgroup: Path) -> None:
    fake_cgroup(cgroup, {"memory.max": str(GIB)})
    assert check_memory("512M") == 512 << 20
    if physical_memory() > 2 * GIB:
        with pytest.raises(ColoritError, match=r"^--max-memory 2G is more than the 1G this container may use$"):
            check_memory("2G", "--max-memory")


def test_the_web_pool_sizes_itself_to_the_cpu_quota(cgroup: Path) -> None:
    from colorit.web.config import ServerConfig, default_workers

    fake_cgroup(cgroup, {"cpu.max": "100000 100000", "memory.max": str(GIB)})
    assert default_workers() == 1
    config = ServerConfig()
    assert config.workers == 1
    # the one worker gets half the container's memory
    assert config.memory_per_solve == max(64 << 20, min(GIB, physical_memory()) // 2)


def test_a_limit_on_a_group_above_this_process_holds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process in a nested group (``/proc/self/cgroup`` names its path): the lowest
    limit on the way from its group up to the root is the one that holds."""
    from colorit import machine as limits

    root = tmp_path / "cgroup"
    fake_cgroup(
        root,
        {
            "memory/jobs/memory.limit_in_bytes": str(GIB),
            "memory/jobs/one/memory.limit_in_bytes": "9223372036854771712",
            "memory/memory.limit_in_bytes": "9223372036854771712",
        },
    )
    monkeypatch.delenv(CGROUP_ROOT_ENV, raising=False)
    monkeypatch.setattr(limits, "CGROUP_ROOT", str(root))
    real_read = limits._read
    own = "4:memory:/jobs/one\n0::/\n"
    monkeypatch.setattr(limits, "_read", lambda path: own if path == "/proc/self/cgroup" else real_read(path))
    assert cgroup_memory_limit() == GIB
