"""The engine at scale: deep chains without recursion, wide graphs, and every node run exactly once."""

import sys

import numpy as np

import minigrad


def all_nodes(root):
    """Every node reachable from ``root``, each once (explicit stack)."""
    seen, stack = {}, [root]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen[id(node)] = node
        stack.extend(child for child, _ in node.next_functions)
    return list(seen.values())


def test_million_node_chain_backpropagates():
    """y = x, then 500,000 times y = y * 1.0 and y = y + 0 (a million nodes): dy/dx = 1, no RecursionError."""
    x = minigrad.tensor(2.0, requires_grad=True)
    y = x
    for _ in range(500_000):
        y = y * 1.0
        y = y + 0
    assert y.item() == 2.0
    y.backward()
    assert x.grad.item() == 1.0
    del y  # dropping a million-node chain must not crash either


def test_chain_needs_no_python_recursion():
    """With the recursion limit only 100 frames above the current depth, a 5,000-node chain still runs backward."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x
    for _ in range(5_000):
        y = y * 1.0
    y = y.sum()

    depth = 0
    frame = sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + 100)
    try:
        y.backward()
    finally:
        sys.setrecursionlimit(old_limit)
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 1.0])


def test_chain_of_scalings_multiplies_the_gradients():
    """y = x * 2 applied 50 times: dy/dx = 2^50, exact in float64."""
    x = minigrad.tensor(1.0, dtype=minigrad.float64, requires_grad=True)
    y = x
    for _ in range(50):
        y = y * 2.0
    y.backward()
    assert x.grad.item() == 2.0 ** 50


def test_wide_graph_sums_every_branch():
    """x used in 2,000 branches y_i = x * i: d(sum y_i)/dx = 0 + 1 + ... + 1999 = 1999 * 2000 / 2 = 1,999,000."""
    x = minigrad.tensor(1.0, dtype=minigrad.float64, requires_grad=True)
    total = x * 0.0
    for i in range(1, 2_000):
        total = total + x * float(i)
    total.backward()
    assert x.grad.item() == 1_999_000.0


def test_wide_graph_through_stack():
    """1,000 branches gathered by stack: d/dx sum_i (x * i) = sum(range(1000)) = 499,500."""
    x = minigrad.tensor(1.0, dtype=minigrad.float64, requires_grad=True)
    minigrad.stack([x * float(i) for i in range(1_000)]).sum().backward()
    assert x.grad.item() == 499_500.0


def test_many_leaves_each_get_their_gradient():
    """sum_i leaf_i * i over 1,000 leaves: leaf_i.grad = i."""
    leaves = [minigrad.tensor(1.0, requires_grad=True) for _ in range(1_000)]
    total = leaves[0] * 0.0
    for i, t in enumerate(leaves):
        total = total + t * float(i)
    total.backward()
    assert [t.grad.item() for t in leaves] == [float(i) for i in range(1_000)]


def test_doubling_ladder_runs_each_node_once():
    """y = y + y, 60 times: the gradient doubles each level (2^60), and each of the 61 nodes runs exactly once."""
    # An engine that re-walked shared sub-graphs once per path would run the bottom node 2^60 times.
    x = minigrad.tensor(1.0, dtype=minigrad.float64, requires_grad=True)
    y = x
    for _ in range(60):
        y = y + y
    nodes = all_nodes(y.grad_fn)
    assert len(nodes) == 61  # 60 AddBackward0 + 1 AccumulateGrad
    runs = {}
    for node in nodes:
        node.register_prehook(lambda grad_outputs, key=id(node): runs.__setitem__(key, runs.get(key, 0) + 1))
    y.backward()
    assert x.grad.item() == 2.0 ** 60
    assert sorted(runs.values()) == [1] * 61


def test_each_node_runs_once_in_a_lattice():
    """A 20 x 20 lattice where each cell adds its left and upper neighbours: every node runs once, grad C(39, 20)."""
    x = minigrad.tensor(1.0, dtype=minigrad.float64, requires_grad=True)
    n = 20
    row = [x * 1.0 for _ in range(n)]
    for j in range(1, n):
        row[j] = row[j - 1] + row[j]  # first row: cell j depends on cells 0..j
    for _ in range(1, n):
        new = [row[0] * 1.0]
        for j in range(1, n):
            new.append(new[j - 1] + row[j])
        row = new
    out = row[-1]
    nodes = all_nodes(out.grad_fn)
    runs = {}
    for node in nodes:
        node.register_prehook(lambda grad_outputs, key=id(node): runs.__setitem__(key, runs.get(key, 0) + 1))
    out.backward()
    assert set(runs.values()) == {1} and len(runs) == len(nodes)
    # Cell (i, j) holds V(i, j) * x with V(0, j) = j + 1, V(i, 0) = 1 and
    # V(i, j) = V(i, j - 1) + V(i - 1, j); Pascal's rule shows V(i, j) = C(i + j + 1, i + 1),
    # so the corner (n - 1, n - 1) is C(2n - 1, n).
    from math import comb

    assert x.grad.item() == float(comb(2 * n - 1, n))
