"""fast_path 17: the attributes that recording sets on a result, a view, a leaf and a node are in
CPython's table of names shared by a class's instances, whatever the program did before.

On CPython 3.11 that table takes new names only while few instances exist. Without the reservation,
a process that made many tensors and nodes before its first recorded op (a no-grad warm-up, a
notebook's earlier cells) gave every later result and node a dict of its own: about 240 bytes
more each, and slower to make. The check runs in a fresh interpreter, so that what ran before in
this one does not decide it.
"""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

PROGRAM = textwrap.dedent('''
    import gc, json, tracemalloc
    import numpy as np
    import minigrad
    from minigrad.ops.elementwise import Mul
    from minigrad.tensor import Tensor

    # Many instances first, none of them setting the names recording sets.
    warm_up = [Tensor._wrap(np.zeros(())) for _ in range(20000)]
    with minigrad.no_grad():
        a = minigrad.ones(3)
        warm_up += [a * a for _ in range(20000)]  # (each makes a Mul node too)

    # The names recording really sets: on a product, its node, a view and a leaf after backward.
    x, w = minigrad.ones(3, requires_grad=True), minigrad.ones(3)
    y = x * w
    view = x.expand(2, 3)
    (y.sum() + view.sum()).backward()
    node = y.grad_fn
    tensor_names = sorted(set(vars(y)) | set(vars(view)) | set(vars(x)))
    node_names = sorted(set(vars(node)))
    # (vars() gave each of those four a dict of its own: they are not measured.)

    def allocated(make, count=2000):
        """Bytes each object ``make()`` returns holds (tracemalloc), the list's share left out."""
        kept = [None] * count
        gc.collect()
        tracemalloc.start()
        start = tracemalloc.get_traced_memory()[0]
        for i in range(count):
            kept[i] = make()
        held = tracemalloc.get_traced_memory()[0] - start
        tracemalloc.stop()
        return held / count

    def with_names(cls, names):
        def make():
            instance = object.__new__(cls)
            for name in names:
                object.__setattr__(instance, name, None)  # (None: nothing else is allocated)
            return instance
        return make

    print(json.dumps({
        "tensor_names": tensor_names, "node_names": node_names,
        "bare tensor": allocated(with_names(Tensor, ["_data"])),
        "recorded tensor": allocated(with_names(Tensor, tensor_names)),
        "bare node": allocated(with_names(Mul, ["_sequence_nr"])),
        "recorded node": allocated(with_names(Mul, node_names)),
    }))
''')


def test_recording_sets_no_attribute_that_gives_an_instance_a_dict_of_its_own():
    root = Path(__file__).resolve().parents[2]  # (this checkout's minigrad)
    out = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, check=True, cwd=root).stdout
    found = json.loads(out)
    assert {"_data", "_grad_fn", "_requires_grad", "_base", "_grad"} <= set(found["tensor_names"])  # (really read)
    assert {"next_functions", "_saved_values", "_released"} <= set(found["node_names"])
    # Names in the shared table cost a slot in an array every instance has anyway: nothing more.
    assert found["recorded tensor"] == found["bare tensor"], found
    assert found["recorded node"] == found["bare node"], found
