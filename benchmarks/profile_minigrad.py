"""Where minigrad's time goes: cProfile over the MLP step and the tiny-op path.

    python benchmarks/profile_minigrad.py [--quick] [--top N]

Prints, for each workload, the functions with the most *own* time (tottime:
time inside the function itself, not in what it calls), which is where
overhead lives. cProfile adds its own cost to every Python call, so it
inflates pure-Python code relative to NumPy's C code: read the ranking, not
the absolute times. Not part of ``run.py``; a tool for whoever optimizes.
"""

import timing  # noqa: I001  (first: pins BLAS to one thread before NumPy loads)

import argparse
import cProfile
import pstats

import minigrad

import mlp_step


def mlp_workload(steps):
    weights, x, y = mlp_step.make_problem()
    cls = mlp_step.MinigradNNStep if mlp_step.minigrad_has_nn() else mlp_step.MinigradOpsStep
    runner = cls(weights, x, y)
    runner.step()

    def work():
        for _ in range(steps):
            runner.step()

    return f"MLP step ({cls.name}) x {steps}", work


def tiny_op_workload(calls):
    a = minigrad.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    b = minigrad.tensor([0.5, 1.5, 2.5, 3.5], requires_grad=True)
    ones = minigrad.ones(4)

    def work():
        for _ in range(calls):
            (a * b).backward(ones)
            a.exp().backward(ones)

    return f"tiny ops: (a * b).backward(ones) and a.exp().backward(ones), shape (4,), x {calls}", work


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    for title, work in (mlp_workload(300 // scale), tiny_op_workload(5000 // scale)):
        profiler = cProfile.Profile()
        profiler.runcall(work)
        print(f"\n=== {title} ===")
        stats = pstats.Stats(profiler)
        stats.sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
