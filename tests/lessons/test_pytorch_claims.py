"""What the notebooks say PyTorch does, checked against PyTorch itself.

Each test names the notebook and the sentence it pins. Where minigrad is allowed
to differ (and the notebook shows both side by side), the test pins both sides,
so that the notebook's words stay true of each library.
"""

import gc
import warnings
import weakref

import pytest

import minigrad


# --- notebook 08: backward(inputs=[h]) for a non-leaf h --------------------------------------
def _example(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([0.5, -1.0], requires_grad=True)
    b = lib.tensor(0.1, requires_grad=True)
    h = x * w
    loss = (h.tanh() + b).sum()
    return x, w, b, h, loss


def _runs_under_inputs(lib, pick):
    """The op nodes whose prehook fired (in order) for loss.backward(inputs=pick(x, w, b, h))."""
    x, w, b, h, loss = _example(lib)
    add = loss.grad_fn.next_functions[0][0]
    ran = []
    for node in [loss.grad_fn, add, add.next_functions[0][0], h.grad_fn]:
        node.register_prehook(lambda grad_outputs, name=node.name(): ran.append(name))
    loss.backward(inputs=pick(x, w, b, h))
    return ran, (x, w, b, h)


def test_pytorch_runs_the_node_that_made_a_non_leaf_input(torch):
    """Notebook 08: "`inputs=[h]` runs four nodes ... then `MulBackward0` runs, as in PyTorch.
    Nothing it computes is kept ... its saved tensors are freed"."""
    ran, (x, w, b, h) = _runs_under_inputs(torch, lambda x, w, b, h: [h])
    assert ran == ["SumBackward0", "AddBackward0", "TanhBackward0", "MulBackward0"]
    assert x.grad is None and w.grad is None and b.grad is None and h.grad is not None
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        h.grad_fn._saved_other


def test_pytorch_autograd_grad_does_not_run_it(torch):
    """Notebook 08: "`autograd.grad(loss, h)` ... hands the gradient back as it arrives and stops there"."""
    x, w, b, h, loss = _example(torch)
    fired = []
    h.grad_fn.register_prehook(lambda grad_outputs: fired.append(1))
    torch.autograd.grad(loss, h)
    assert fired == []


@pytest.mark.parametrize("choice", ["[b]", "[h]", "[w]", "[x, w, b]", "[h, b]"])
def test_minigrad_runs_the_same_nodes_as_pytorch_under_inputs(torch, choice):
    """Notebook 08 prints minigrad's and PyTorch's counts side by side: they must agree."""
    pick = {"[b]": lambda x, w, b, h: [b], "[h]": lambda x, w, b, h: [h], "[w]": lambda x, w, b, h: [w],
            "[x, w, b]": lambda x, w, b, h: [x, w, b], "[h, b]": lambda x, w, b, h: [h, b]}[choice]
    theirs, _ = _runs_under_inputs(torch, pick)
    ours, _ = _runs_under_inputs(minigrad, pick)
    assert ours == theirs


def test_minigrad_autograd_grad_does_not_run_it_either():
    x, w, b, h, loss = _example(minigrad)
    fired = []
    h.grad_fn.register_prehook(lambda grad_outputs: fired.append(1))
    minigrad.autograd.grad(loss, h)
    assert fired == []


# --- notebook 07: the .grad cycle of backward(create_graph=True) -------------------------------
def _alive(lib, way):
    """(alive after del x, alive after gc.collect()) for a leaf x, as notebook 07's cell measures it."""
    gc.disable()
    try:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        if way == "autograd.grad":
            g, = lib.autograd.grad((x**3).sum(), x, create_graph=True)
            del g
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                (x**3).sum().backward(create_graph=True)
            if way == "grad = None":
                x.grad = None
        watch = weakref.ref(x)
        del x
        after_del = watch() is not None
        gc.collect()
        after_collect = watch() is not None
        if watch() is not None:
            watch().grad = None  # do not leak the test's own tensor
        return after_del, after_collect
    finally:
        gc.enable()


def test_pytorch_gc_collect_does_not_free_the_create_graph_cycle(torch):
    """Notebook 07: "In PyTorch ... `gc.collect()` frees nothing ... until the process ends"."""
    assert _alive(torch, "backward") == (True, True)


def test_minigrad_gc_collect_frees_the_create_graph_cycle():
    """Notebook 07: "In minigrad the loop is made of Python objects only, so the collector finds it"."""
    assert _alive(minigrad, "backward") == (True, False)


@pytest.mark.parametrize("way", ["autograd.grad", "grad = None"])
def test_the_two_ways_out_free_the_leaf_at_once_in_both(torch, way):
    """Notebook 07: with autograd.grad, or x.grad = None, the leaf goes as soon as your variables do."""
    assert _alive(torch, way) == (False, False)
    assert _alive(minigrad, way) == (False, False)


# --- notebook 07: a Hessian-vector product costs more than two plain backward passes ----------
def _graph_size(tensor):
    """The number of distinct nodes reachable from ``tensor.grad_fn``."""
    seen, stack = set(), [tensor.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(next_node for next_node, _ in node.next_functions)
    return len(seen)


@pytest.mark.parametrize("lib_name", ["torch", "minigrad"])
def test_the_second_hvp_pass_walks_a_larger_graph_of_constant_size(torch, lib_name):
    """Notebook 07: "the second pass runs over the graph that the first one recorded ... larger than
    f's ... a constant factor more ... whatever n is"."""
    lib = torch if lib_name == "torch" else minigrad
    sizes = []
    for n in (3, 300):
        w = lib.ones(n, requires_grad=True)
        v = lib.ones(n)
        f = (w**4).sum() + w[0] * w[1]
        grad_f, = lib.autograd.grad(f, w, create_graph=True)
        inner = (grad_f * v).sum()
        sizes.append((_graph_size(f), _graph_size(inner)))
    assert sizes[0] == sizes[1], f"graph sizes depend on n: {sizes}"
    f_nodes, second_nodes = sizes[0]
    assert second_nodes > f_nodes, sizes


# --- notebook 14 (and 10): detach() is not a copy ------------------------------------------
@pytest.mark.parametrize("lib_name", ["torch", "minigrad"])
def test_detach_shares_memory_and_the_version_counter_clone_does_not(torch, lib_name):
    """Notebook 14's table: "`t.detach()` ... shares the memory and the version counter:
    `t.detach().clone()` is a copy"."""
    lib = torch if lib_name == "torch" else minigrad
    t = lib.tensor([1.0, 2.0], requires_grad=True) * 1
    d = t.detach()
    d.add_(1)
    assert t.tolist() == [2.0, 3.0] and t._version == d._version == 1
    c = t.detach().clone()
    c.add_(1)
    assert t.tolist() == [2.0, 3.0] and t._version == 1
