"""The benchmark script runs: ``benchmarks/run.py --quick`` exits 0 and prints every section.

No timing is asserted: the numbers of a quick run on a busy machine mean nothing.
"""

import importlib
import os
import pathlib
import re
import subprocess
import sys
from unittest import mock

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
SECTIONS = [
    "# minigrad benchmarks",
    "## (a) MLP training step",
    "## (a2) micrograd's demo step",
    "## (b) Per-op overhead on tiny tensors",
    "## (c) Long chain",
    "## (d) Memory",
    "## (e) Rendering a 1,000-node graph",
    "## (e2) A 2,000-node stepper and a 20,000-node draw",
    "## Goals",
]


def _benchmark_module(name):
    """``benchmarks/<name>.py`` imported as a module; the BLAS-thread variables its ``timing``
    import sets are kept out of the test process's environment."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        with mock.patch.dict(os.environ):
            return importlib.import_module(name)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))


def test_quick_run_prints_every_section(tmp_path):
    report = tmp_path / "RESULTS.md"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick", "--markdown", str(report)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    for section in SECTIONS:
        assert section in done.stdout, f"missing {section!r} in:\n{done.stdout}"
        assert section in report.read_text()
    assert "FAILED" not in done.stdout
    # (a) checked that all contenders compute the same losses before timing them.
    assert "agree to 1e-4" in done.stdout


def test_the_instruction_counter_s_worker_runs_the_steps_it_counts(tmp_path):
    # (valgrind itself is optional; what it runs is this worker, whose steps must work.)
    script = str(ROOT / "benchmarks" / "instructions.py")
    for name in ("NumPy by hand", "minigrad (nn + optim)", "minigrad (tensors + ops)"):
        done = subprocess.run([sys.executable, script, "--worker", name, "--steps", "3", "--root", str(ROOT)],
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
    # A --root without minigrad must not count the installed one instead.
    done = subprocess.run([sys.executable, script, "--worker", "minigrad (nn + optim)", "--steps", "3",
                           "--root", str(tmp_path)], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "not from" in done.stdout + done.stderr


def test_the_mlp_step_by_position_times_every_step_of_a_round_for_every_contender():
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "mlp_step.py"), "--by-position", "--quick"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    assert "step 1 of 2" in lines[0] and "step 2 of 2" in lines[0]
    names = [line.split("|")[1].strip() for line in lines[2:]]
    assert names[:3] == ["NumPy by hand", "minigrad (nn + optim)", "minigrad (tensors + ops)"]
    assert all(line.rstrip().endswith("x |") for line in lines[2:])  # (each row ends with its ratio)



def test_the_mlp_step_under_load_times_every_contender():
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "mlp_step.py"), "--under-load", "--quick"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    if len(os.sched_getaffinity(0)) < 2:  # (one CPU: no room for the neighbour, and the script says so)
        assert done.returncode != 0 and "needs two CPUs" in done.stderr, done.stdout + done.stderr
        return
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    assert re.match(r"The MLP step while process \d+ on CPU \d+ streamed", lines[0])
    rows = [line for line in lines[4:] if line.startswith("| ")]  # (PyTorch's row only where it is installed)
    names = [row.split("|")[1].strip() for row in rows]
    assert names == ["NumPy by hand", "minigrad (nn + optim)", "minigrad (tensors + ops)", "PyTorch"][:len(names)]
    assert len(names) >= 3 and all(row.rstrip().endswith("x |") for row in rows)


def test_the_neighbour_streams_on_another_cpu_and_is_gone_when_the_block_ends():
    if len(os.sched_getaffinity(0)) < 2:
        return  # (the script's own message for one CPU is checked above)
    neighbour = _benchmark_module("neighbour")
    cpus = os.sched_getaffinity(0)
    with neighbour.memory_streaming_neighbour() as load:
        pid, theirs, mine = map(int, re.match(r"while process (\d+) on CPU (\d+) .* on CPU (\d+)\)", load).groups())
        assert os.sched_getaffinity(0) == {mine} and theirs != mine
        assert os.sched_getaffinity(pid) == {theirs}
    assert os.sched_getaffinity(0) == cpus
    assert not pathlib.Path(f"/proc/{pid}").exists()  # killed and waited for, not left to find out later


def test_the_lean_tape_prints_both_step_tables_with_every_contender():
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "lean_tape.py"), "--quick"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    tables = done.stdout.split("The MLP step, ")[1:]
    assert [t.split(" (")[0] for t in tables] == ["full size", "tiny matrices: the fixed cost"]
    for table in tables:
        names = [row.split("|")[1].strip() for row in table.splitlines() if row.startswith("| ")][1:]
        assert names[:4] == ["NumPy by hand", "lean tape (no PyTorch parity)", "minigrad (nn + optim)",
                             "minigrad (tensors + ops)"]


def test_the_lean_tape_s_gradients_are_minigrad_s():
    # The floor it stands for is only a floor if it computes the same step: its gradients after
    # one backward against minigrad's (nn + optim), from the same weights and batch.
    lean_tape, mlp_step = _benchmark_module("lean_tape"), _benchmark_module("mlp_step")
    weights, x, y = mlp_step.make_problem(sizes=(8, 6, 5, 3))
    tape = lean_tape.LeanTapeStep(weights, x, y)
    lean_tape.backward(tape.loss())
    step = mlp_step.MinigradNNStep(weights, x, y)
    step.loss().backward()
    expected = {"W1": step.l1.weight, "b1": step.l1.bias, "W2": step.l2.weight, "b2": step.l2.bias}
    for name, param in expected.items():
        np.testing.assert_allclose(tape.p[name].grad, param.grad.numpy(), rtol=1e-5, atol=1e-7, err_msg=name)


def test_the_cold_tiny_step_runs_each_contender_once_per_round_after_a_sweep_and_shows_in_the_report():
    mlp_step = _benchmark_module("mlp_step")
    calls = []
    sweeps = []

    class Runner:
        def __init__(self, name):
            self.name = name

        def step(self):
            # (how many sweeps the array has had when this step starts: one more before each step)
            calls.append((self.name, float(sweeps[0][0]), float(sweeps[0][-1])))

    real_zeros = np.zeros

    def watched_zeros(*args, **kwargs):
        array = real_zeros(*args, **kwargs)
        sweeps.append(array)
        return array

    with mock.patch.object(mlp_step, "COLD_WRITE", 1 << 20), mock.patch.object(mlp_step.np, "zeros", watched_zeros):
        times = mlp_step.time_cold({"a": Runner("a").step, "b": Runner("b").step}, rounds=3)
    # Interleaved rounds, one step each, every step after a sweep of the whole array (COLD_WRITE bytes).
    assert calls == [(name, float(n), float(n)) for n, name in enumerate(["a", "b"] * 3, start=1)]
    assert len(sweeps) == 1 and sweeps[0].nbytes == 1 << 20
    assert set(times) == {"a", "b"} and all(len(t.samples) == 3 for t in times.values())

    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "mlp_step.py"), "--quick"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    table = done.stdout.split("µs/step, tiny, cold")[1].split("\n\n")[0]
    rows = [row.split("|")[1:-1] for row in table.splitlines() if row.startswith("| ") and "---" not in row]
    assert [r[0].strip() for r in rows][:3] == ["NumPy by hand", "minigrad (nn + optim)", "minigrad (tensors + ops)"]
    assert all(re.fullmatch(r"\d+", cell.strip()) for r in rows for cell in r[1:])


def test_the_cold_footprint_counts_lines_by_kind_and_per_step():
    footprint = _benchmark_module("cold_footprint")
    out = "\n".join([
        "events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw",
        "fl=/tmp/build/Python-3.11.7/Python/ceval.c", "fn=_PyEval_EvalFrameDefault",
        "10 100 9 3 40 8 5 20 2 1", "11 50 4 2",  # (a line without data events)
        "fl=???", "fn=sgemm_kernel", "1 30 3 3 10 2 2 0 0 0",
        "fn=ufunc_generic_fastcall", "1 30 3 1 10 2 7 5 1 1",
        "fl=./malloc/malloc.c", "fn=_int_malloc", "5 9 1 1 4 1 1 4 0 0",
    ])
    lines = footprint.memory_lines(out)
    assert lines == {("interpreter", "instruction"): 3 + 2, ("interpreter", "data"): 5 + 1,
                     ("BLAS", "instruction"): 3, ("BLAS", "data"): 2,
                     ("NumPy and other", "instruction"): 1, ("NumPy and other", "data"): 7 + 1,
                     ("C library", "instruction"): 1, ("C library", "data"): 1}
    step = footprint.per_step(lines, {("BLAS", "data"): 2, ("interpreter", "data"): 2}, steps=2)
    assert step[("interpreter", "data")] == 2 and step[("BLAS", "data")] == 0 and step[("BLAS", "instruction")] == 1.5


def test_the_cold_footprint_s_eight_pieces_are_the_nn_step():
    footprint = _benchmark_module("cold_footprint")
    whole, step = footprint.make_step("nn", None)
    pieces, in_pieces = footprint.make_step("nn", len(footprint.PIECES))
    for _ in range(3):  # (a piece left out, zero_grad say, shows by the second step)
        step()
        in_pieces()
    for mine, theirs in zip(whole.model.parameters(), pieces.model.parameters()):
        np.testing.assert_array_equal(mine.detach().numpy(), theirs.detach().numpy())
    assert whole.loss().item() == pieces.loss().item()
