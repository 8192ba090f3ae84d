"""A busy neighbour on demand: another process streaming memory while a benchmark runs.

On this project's shared host, some full benchmark runs land beside other tenants' work, and
the MLP step's ratios move there (RESULTS.md: NumPy's own tiny step taking 63 µs instead of
38). Such runs cannot be asked for. This module makes one: a process pinned to another CPU
multiplies two arrays far larger than the last-level cache into each other, without end, so
that every memory access the benchmark misses in its own core's caches competes with it for
the shared cache and the memory bus. The benchmark itself is pinned to a CPU of its own.

It is a tool for looking, not one of issue #12's goals: ``python benchmarks/mlp_step.py
--under-load``. Linux only (CPU affinity); it needs two CPUs.
"""

import os
import subprocess
import sys
from contextlib import contextmanager

STREAM_BYTES = 64 << 20  # per array, two of them: twice this machine's 32 MiB L3, so nothing stays cached

# The neighbour: stream until its parent is gone (it checks after every pass, some ms apart),
# so that a benchmark killed outright does not leave it running.
_NEIGHBOUR = """
import os
import numpy as np
os.sched_setaffinity(0, {cpu})
parent = os.getppid()
a = np.ones({count}, np.float32)
b = np.empty_like(a)
print("streaming", flush=True)
while os.getppid() == parent:
    np.multiply(a, 1.0000001, out=b)
    a, b = b, a
"""


def _two_cpus():
    """(the benchmark's CPU, the neighbour's), or a SystemExit that says why there are not two."""
    if not hasattr(os, "sched_getaffinity"):
        raise SystemExit("--under-load needs Linux's CPU affinity (os.sched_setaffinity), which this system lacks")
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        raise SystemExit(f"--under-load needs two CPUs (the benchmark on one, a memory-streaming neighbour on "
                         f"another); this process may use {len(cpus)}")
    return cpus[0], cpus[1]


@contextmanager
def memory_streaming_neighbour():
    """Run the body pinned to one CPU while a neighbour process streams memory on another.

    Yields a one-line description of the load. The neighbour is stopped (and waited for) on exit,
    and this process gets back the CPUs it had.
    """
    mine, theirs = _two_cpus()
    before = os.sched_getaffinity(0)
    code = _NEIGHBOUR.format(cpu={theirs}, count=STREAM_BYTES // 4)
    neighbour = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        if neighbour.stdout.readline().strip() != "streaming":  # (its arrays are made: the load is on)
            raise RuntimeError(f"the neighbour process did not start (exit code {neighbour.wait()})")
        os.sched_setaffinity(0, {mine})
        yield (f"while process {neighbour.pid} on CPU {theirs} streamed two {STREAM_BYTES >> 20} MiB float32 "
               f"arrays through memory (this process on CPU {mine})")
    finally:
        os.sched_setaffinity(0, before)
        neighbour.kill()
        neighbour.wait()
        neighbour.stdout.close()
