"""Machine instructions per training step, counted by valgrind: a measure load cannot move.

On a shared machine a timing moves by 10-30% from run to run (RESULTS.md), so a change that
saves 3% of a step cannot be seen in one run, nor told from the host's noise in several. The
number of instructions the step executes does not move with the host (it repeats to a few in a
million, with Python's hash seed fixed). This script counts them with valgrind's cachegrind for
the MLP step on tiny matrices (``mlp_step.TINY``), whose cost is all fixed cost: Python,
bookkeeping, dispatch.

It is a tool for comparing two versions of the code, not one of issue #12's goals: an
instruction is not a unit of time (a cache miss costs more than an add), so it shows that a
change removed work, and the timed benchmarks show what that work cost.

A count is the difference between two runs that differ only in the number of steps timed
(``LONG - SHORT``, after the same warm-up), divided by that difference: imports and start-up
cancel out.

Run: ``python benchmarks/instructions.py [--root PATH] [--steps N]``. ``--root`` counts the
minigrad of another checkout (a ``git worktree`` of an older commit, say), for an A/B without
a quiet host.
"""

import timing  # noqa: I001  (first: pins BLAS to one thread before NumPy loads)

import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
WARM_UP, SHORT = 50, 100
CONTENDERS = ("NumPy by hand", "minigrad (nn + optim)", "minigrad (tensors + ops)")


def run_steps(name, steps, root):
    """The worker: ``steps`` tiny MLP steps of one contender, after a warm-up (run under valgrind)."""
    sys.path.insert(0, root)
    import minigrad

    if not os.path.abspath(minigrad.__file__).startswith(os.path.abspath(root) + os.sep):
        raise SystemExit(f"minigrad came from {minigrad.__file__}, not from {root}")
    import mlp_step

    weights, x, y = mlp_step.make_problem(sizes=mlp_step.TINY)
    (cls,) = [c for c in mlp_step.contenders() if c.name == name]
    step = cls(weights, x, y).step
    for _ in range(WARM_UP + steps):
        step()


def count(name, steps, root):
    """Instructions valgrind counted for a worker run of ``steps`` steps (start-up included)."""
    command = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
               sys.executable, os.path.abspath(__file__), "--worker", name, "--steps", str(steps), "--root", root]
    env = dict(os.environ, PYTHONHASHSEED="0")  # (dicts and sets laid out the same in every run)
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode or not found:
        raise SystemExit(f"valgrind failed for {name}:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def per_step(name, long_steps, root):
    """Instructions per step: (the long run - the short run) / the steps between them."""
    return (count(name, long_steps, root) - count(name, SHORT, root)) / (long_steps - SHORT)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.dirname(HERE), help="the checkout whose minigrad is counted")
    parser.add_argument("--steps", type=int, default=600, help="steps in the long run (the short one: 100)")
    parser.add_argument("--worker", choices=CONTENDERS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        run_steps(args.worker, args.steps, args.root)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind): it counts the instructions")
    if args.steps <= SHORT:
        raise SystemExit(f"--steps must be more than {SHORT}")
    counts = {name: per_step(name, args.steps, args.root) for name in CONTENDERS}
    numpy = counts[CONTENDERS[0]]
    print(f"Instructions per MLP step on tiny matrices (batch, in, hidden, out = 4, 6, 5, 3); minigrad from "
          f"{args.root}\n")
    print("\n".join(timing.table(["step", "instructions per step", "vs NumPy"],
                                 [[name, f"{value:,.0f}", f"{value / numpy:.2f}x"] for name, value in counts.items()])))


if __name__ == "__main__":
    main()
