"""minigrad.nn: Module bookkeeping, Parameter, layers, losses and functional, against PyTorch."""

import math
import os
import re
import warnings
from collections import OrderedDict

import numpy as np
import pytest

import minigrad
from minigrad import nn
from minigrad.nn import functional as F
from torch_parity import graph_names, pytorch_part

if os.environ.get("MINIGRAD_REQUIRE_TORCH") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")
tnn, TF = torch.nn, torch.nn.functional


def as_minigrad(text):
    return re.sub(r"\btorch\b", "minigrad", text)


def error_text(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001  (the type is part of the text compared)
        return f"{type(e).__name__}: {pytorch_part(e)}"
    return "no error"


def copy_params(m_module, t_module):
    """Give the torch module the minigrad module's parameter values."""
    with torch.no_grad():
        for (m_name, m_p), (t_name, t_p) in zip(m_module.named_parameters(), t_module.named_parameters()):
            assert m_name == t_name
            t_p.copy_(torch.from_numpy(m_p.detach().numpy().copy()))


def close(m, t, rtol=1e-6, atol=1e-7):
    np.testing.assert_allclose(m.detach().numpy(), t.detach().numpy(), rtol=rtol, atol=atol)


def build(lib):
    n = lib.nn
    return n.Sequential(n.Linear(2, 3), n.ReLU(), n.Sequential(n.Tanh(), n.Linear(3, 1, bias=False)), n.Sigmoid(),
                        n.MSELoss(), n.CrossEntropyLoss(), n.ReLU(inplace=True))


# --- Parameter -------------------------------------------------------------------------------


def test_parameter_is_a_leaf_requiring_grad_and_prints_like_torch():
    m = nn.Parameter(minigrad.tensor([1.0, 2.0]))
    t = tnn.Parameter(torch.tensor([1.0, 2.0]))
    assert isinstance(m, minigrad.Tensor) and m.is_leaf and m.requires_grad
    assert repr(m) == repr(t) == "Parameter containing:\ntensor([1., 2.], requires_grad=True)"
    frozen = nn.Parameter(minigrad.tensor([1.0, 2.0]), requires_grad=False)
    assert repr(frozen) == repr(tnn.Parameter(torch.tensor([1.0, 2.0]), requires_grad=False))
    assert nn.Parameter().shape == (0,)


def test_parameter_shares_memory_and_version_with_its_data_and_ops_give_tensors():
    data = minigrad.tensor([1.0, 2.0])
    p = nn.Parameter(data)
    with minigrad.no_grad():
        p.mul_(3)
    assert data.tolist() == [3.0, 6.0] and data._version == p._version == 1
    assert type(p * 2) is minigrad.Tensor and type(p.detach()) is minigrad.Tensor
    (p * p).sum().backward()
    assert p.grad.tolist() == [6.0, 12.0]


def test_parameter_of_integers_is_refused():
    assert error_text(lambda: nn.Parameter(minigrad.tensor([1, 2]))) == \
        error_text(lambda: tnn.Parameter(torch.tensor([1, 2])))


# --- Module bookkeeping ---------------------------------------------------------------------


def test_repr_names_and_tree_walks_match_torch():
    m, t = build(minigrad), build(torch)
    assert repr(m) == repr(t)
    assert [n for n, _ in m.named_parameters()] == [n for n, _ in t.named_parameters()] == \
        ["0.weight", "0.bias", "2.1.weight"]
    assert [n for n, _ in m.named_modules()] == [n for n, _ in t.named_modules()]
    assert [n for n, _ in m.named_children()] == [n for n, _ in t.named_children()]
    assert len(list(m.parameters(recurse=False))) == 0
    assert [type(c).__name__ for c in m.children()] == [type(c).__name__ for c in t.children()]
    assert repr(m[1:3]) == repr(t[1:3]) and repr(m[-1]) == repr(t[-1]) and len(m) == len(t) == 7


def test_shared_modules_and_parameters_are_listed_once():
    layer = nn.Linear(2, 2)
    model = nn.Sequential(layer, nn.ReLU(), layer)
    assert [n for n, _ in model.named_parameters()] == ["0.weight", "0.bias"]
    assert len(list(model.modules())) == 3
    assert len(list(model.named_parameters(remove_duplicate=False))) == 4


def test_custom_module_registers_attributes():
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.scale = nn.Parameter(minigrad.ones(1))
            self.body = nn.Sequential(nn.Linear(3, 4), nn.Tanh())
            self.head = nn.Linear(4, 2)
            self.register_buffer("steps", minigrad.zeros(1))
            self.note = "plain attributes stay plain"

        def forward(self, x):
            return self.head(self.body(x)) * self.scale

    net = Net()
    assert [n for n, _ in net.named_parameters()] == [
        "scale", "body.0.weight", "body.0.bias", "head.weight", "head.bias"]
    assert list(net.state_dict()) == [
        "scale", "steps", "body.0.weight", "body.0.bias", "head.weight", "head.bias"]
    assert [n for n, _ in net.named_buffers()] == ["steps"]
    assert net.note == "plain attributes stay plain" and "note" not in net._parameters
    assert net(minigrad.ones(5, 3)).shape == (5, 2)
    net.head = None  # a registered child may be set to None...
    assert [n for n, _ in net.named_children()] == ["body"]
    del net.scale
    assert "scale" not in dict(net.named_parameters())


def test_registration_errors_match_torch():
    cases = [
        lambda lib: lib.nn.Sequential(lib.nn.Linear(2, 2)).zz,
        lambda lib: lib.nn.Module()(1),
        lambda lib: setattr(lib.nn.Linear(2, 2), "weight", lib.ones(2, 2)),
        lambda lib: lib.nn.Linear(2, 2).register_parameter("a.b", None),
        lambda lib: lib.nn.Linear(2, 2).register_parameter("", None),
        lambda lib: lib.nn.Linear(2, 2).register_parameter("c", lib.ones(1)),
        lambda lib: lib.nn.Linear(2, 2).register_parameter("in_features", None),
        lambda lib: lib.nn.Linear(2, 2).train("yes"),
        lambda lib: lib.nn.Linear(2, 2).add_module("x", 3),
        lambda lib: setattr(lib.nn.Sequential(lib.nn.ReLU()), "0", 3),
        lambda lib: lib.nn.Sequential(lib.nn.ReLU())[3],
        lambda lib: lib.nn.Linear(2, 2).register_buffer("b", 3),
    ]
    for case in cases:
        t = error_text(lambda: case(torch))
        assert t != "no error"
        assert error_text(lambda: case(minigrad)) == as_minigrad(t)


def test_assigning_before_init_is_an_error():
    def make(lib):
        class Forgetful(lib.nn.Module):
            def __init__(self):
                self.w = lib.nn.Parameter(lib.ones(1))

        return Forgetful

    assert error_text(lambda: make(minigrad)()) == error_text(lambda: make(torch)())


def test_train_eval_and_requires_grad_reach_every_submodule():
    m = build(minigrad)
    assert m.training and m.eval() is m
    assert not any(x.training for x in m.modules())
    m.train()
    assert all(x.training for x in m.modules())
    m.requires_grad_(False)
    assert not any(p.requires_grad for p in m.parameters())


@pytest.mark.parametrize("set_to_none", [True, False])
def test_zero_grad(set_to_none):
    m = nn.Linear(3, 2)
    m(minigrad.ones(4, 3)).sum().backward()
    grad = m.weight.grad
    m.zero_grad(set_to_none=set_to_none)
    if set_to_none:
        assert m.weight.grad is None and m.bias.grad is None
    else:
        assert m.weight.grad is grad and not m.weight.grad.numpy().any()


def test_apply_visits_children_first():
    seen = []
    build(minigrad).apply(lambda mod: seen.append(type(mod).__name__))
    assert seen[-1] == "Sequential" and seen[:2] == ["Linear", "ReLU"]


# --- state_dict ------------------------------------------------------------------------------


def test_state_dict_round_trip_copies_values_in_place():
    minigrad.manual_seed(0)
    a, b = build(minigrad), build(minigrad)
    weight = b[0].weight
    result = b.load_state_dict(a.state_dict())
    assert repr(result) == "<All keys matched successfully>"
    assert b[0].weight is weight and weight._version == 2  # init + load, each one in-place write
    for (_, pa), (_, pb) in zip(a.named_parameters(), b.named_parameters()):
        np.testing.assert_array_equal(pa.detach().numpy(), pb.detach().numpy())
    sd = a.state_dict()
    assert not any(v.requires_grad for v in sd.values())
    assert all(v is p for v, p in zip(a.state_dict(keep_vars=True).values(), a.parameters()))


def test_load_state_dict_errors_and_non_strict_result_match_torch():
    m, t = build(minigrad), build(torch)
    bad = {"0.weight": np.zeros((2, 2)), "foo": np.zeros(1)}
    m_text = error_text(lambda: m.load_state_dict({k: minigrad.tensor(v) for k, v in bad.items()}))
    t_text = error_text(lambda: t.load_state_dict({k: torch.tensor(v) for k, v in bad.items()}))
    assert m_text == as_minigrad(t_text)
    assert repr(m.load_state_dict({}, strict=False)) == repr(t.load_state_dict({}, strict=False))


# --- Linear and Sequential ---------------------------------------------------------------------


def test_linear_init_is_seeded_uniform_within_one_over_sqrt_fan_in():
    minigrad.manual_seed(7)
    a = nn.Linear(50, 40)
    minigrad.manual_seed(7)
    b = nn.Linear(50, 40)
    np.testing.assert_array_equal(a.weight.detach().numpy(), b.weight.detach().numpy())
    np.testing.assert_array_equal(a.bias.detach().numpy(), b.bias.detach().numpy())
    bound = 1 / math.sqrt(50)
    w = a.weight.detach().numpy()
    assert w.shape == (40, 50) and a.bias.shape == (40,) and w.dtype == np.float32
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.95 * bound  # 2000 draws fill the range
    assert abs(w.mean()) < 0.05 * bound and abs(w.std() - bound / math.sqrt(3)) < 0.05 * bound
    assert np.abs(a.bias.detach().numpy()).max() <= bound
    assert nn.Linear(3, 2, bias=False).bias is None
    assert nn.Linear(3, 2, dtype=minigrad.float64).weight.dtype == np.float64
    assert repr(nn.Linear(3, 2, bias=False)) == repr(tnn.Linear(3, 2, bias=False))


def test_mlp_forward_and_backward_match_torch():
    minigrad.manual_seed(0)
    m = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 3), nn.Sigmoid())
    t = tnn.Sequential(tnn.Linear(4, 8), tnn.ReLU(), tnn.Linear(8, 8), tnn.Tanh(), tnn.Linear(8, 3), tnn.Sigmoid())
    copy_params(m, t)
    x = np.random.default_rng(1).standard_normal((5, 4)).astype(np.float32)
    m_out, t_out = m(minigrad.tensor(x)), t(torch.tensor(x))
    close(m_out, t_out)
    (m_out ** 2).sum().backward()
    (t_out ** 2).sum().backward()
    for m_p, t_p in zip(m.parameters(), t.parameters()):
        close(m_p.grad, t_p.grad, rtol=1e-5, atol=1e-6)


def test_sequential_from_ordered_dict_and_append():
    m = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 2)), ("act", nn.ReLU())]))
    t = tnn.Sequential(OrderedDict([("fc", tnn.Linear(2, 2)), ("act", tnn.ReLU())]))
    assert repr(m) == repr(t)
    m.append(nn.Tanh())
    t.append(tnn.Tanh())
    assert repr(m) == repr(t) and [type(x).__name__ for x in m] == ["Linear", "ReLU", "Tanh"]


def test_double_makes_gradcheck_possible_on_a_module():
    minigrad.manual_seed(0)
    m = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2)).double()
    assert all(p.dtype == np.float64 for p in m.parameters())
    x = minigrad.randn(2, 3, dtype=minigrad.float64, requires_grad=True)
    assert minigrad.autograd.gradcheck(lambda inp, *params: m(inp), (x, *m.parameters()))
    assert m.float()[0].weight.dtype == np.float32


# --- activations -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["ReLU", "Tanh", "Sigmoid"])
def test_activation_modules_match_torch(name):
    x = np.array([[-2.0, -0.5, 0.0, 0.5, 2.0]], dtype=np.float32)
    mx, tx = minigrad.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    m_out, t_out = getattr(nn, name)()(mx), getattr(tnn, name)()(tx)
    close(m_out, t_out)
    m_out.sum().backward()
    t_out.sum().backward()
    close(mx.grad, tx.grad)
    assert repr(getattr(nn, name)()) == repr(getattr(tnn, name)())


def test_inplace_relu_matches_torch_and_refuses_leaves():
    x = np.array([-1.0, 0.0, 2.0], dtype=np.float32)
    mx, tx = minigrad.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    my, ty = mx * 3, tx * 3
    m_out, t_out = nn.ReLU(inplace=True)(my), tnn.ReLU(inplace=True)(ty)
    assert m_out is my and my._version == 1
    close(m_out, t_out)
    m_out.sum().backward()
    t_out.sum().backward()
    close(mx.grad, tx.grad)
    leaf = minigrad.tensor(x, requires_grad=True)
    assert error_text(lambda: F.relu(leaf, inplace=True)) == \
        error_text(lambda: TF.relu(torch.tensor(x, requires_grad=True), inplace=True))


# --- functional and losses ----------------------------------------------------------------------


def test_softmax_and_log_softmax_warn_on_implicit_dim_like_torch():
    x = np.random.default_rng(2).standard_normal((3, 4)).astype(np.float32)
    for name in ("softmax", "log_softmax"):
        with warnings.catch_warnings(record=True) as t_warn:
            warnings.simplefilter("always")
            t_out = getattr(TF, name)(torch.tensor(x))
        with pytest.warns(UserWarning) as m_warn:
            m_out = getattr(F, name)(minigrad.tensor(x))
        assert [str(w.message) for w in m_warn] == [str(w.message) for w in t_warn]
        assert m_warn[0].filename == __file__
        close(m_out, t_out)
        close(getattr(F, name)(minigrad.tensor(x), dim=0), getattr(TF, name)(torch.tensor(x), dim=0))


def test_linear_function_matches_torch():
    rng = np.random.default_rng(3)
    x, w, b = (rng.standard_normal(s).astype(np.float32) for s in [(4, 3), (2, 3), (2,)])
    close(F.linear(minigrad.tensor(x), minigrad.tensor(w), minigrad.tensor(b)),
          TF.linear(torch.tensor(x), torch.tensor(w), torch.tensor(b)))
    close(F.linear(minigrad.tensor(x), minigrad.tensor(w)), TF.linear(torch.tensor(x), torch.tensor(w)))


def loss_pair(m_fn, t_fn, arrays, target):
    """Loss value and input gradient of both libraries, on float64 copies of ``arrays``."""
    mx, tx = minigrad.tensor(arrays, requires_grad=True), torch.tensor(arrays, requires_grad=True)
    m_loss, t_loss = m_fn(mx, minigrad.tensor(target)), t_fn(tx, torch.tensor(target))
    close(m_loss, t_loss, rtol=1e-10, atol=1e-12)
    m_loss.sum().backward()
    t_loss.sum().backward()
    close(mx.grad, tx.grad, rtol=1e-10, atol=1e-12)
    return m_loss


RNG = np.random.default_rng(4)
LOGITS = RNG.standard_normal((6, 4))
CLASSES = np.array([0, 3, 1, 1, 2, 0])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss_matches_torch(reduction):
    target = RNG.standard_normal((6, 4))
    loss_pair(lambda a, b: F.mse_loss(a, b, reduction=reduction),
              lambda a, b: TF.mse_loss(a, b, reduction=reduction), LOGITS, target)
    loss_pair(lambda a, b: nn.MSELoss(reduction=reduction)(a, b),
              lambda a, b: tnn.MSELoss(reduction=reduction)(a, b), LOGITS, target)


@pytest.mark.parametrize("kwargs", [
    {},
    {"reduction": "sum"},
    {"reduction": "none"},
    {"weight": np.array([1.0, 2.0, 0.5, 3.0])},
    {"weight": np.array([1.0, 2.0, 0.5, 3.0]), "reduction": "sum"},
    {"ignore_index": 1},
    {"ignore_index": 1, "reduction": "none"},
    {"ignore_index": 1, "weight": np.array([1.0, 2.0, 0.5, 3.0])},
])
def test_cross_entropy_and_nll_loss_with_index_targets_match_torch(kwargs):
    def args(lib):
        return {k: lib.tensor(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}

    loss_pair(lambda a, b: F.cross_entropy(a, b, **args(minigrad)),
              lambda a, b: TF.cross_entropy(a, b, **args(torch)), LOGITS, CLASSES)
    loss_pair(lambda a, b: nn.CrossEntropyLoss(**args(minigrad))(a, b),
              lambda a, b: tnn.CrossEntropyLoss(**args(torch))(a, b), LOGITS, CLASSES)
    loss_pair(lambda a, b: F.nll_loss(a.log_softmax(1), b, **args(minigrad)),
              lambda a, b: TF.nll_loss(a.log_softmax(1), b, **args(torch)), LOGITS, CLASSES)


def test_cross_entropy_with_default_ignore_index_in_the_targets():
    targets = CLASSES.copy()
    targets[2] = -100
    loss_pair(F.cross_entropy, TF.cross_entropy, LOGITS, targets)


@pytest.mark.parametrize("loss_name", ["nll_loss", "cross_entropy"])
def test_a_second_backward_through_a_loss_fails_as_in_pytorch(loss_name):
    # PyTorch's NllLossBackward0 saves the targets (and frees them): a second backward without
    # retain_graph is an error, and so is reading what it saved; with retain_graph it adds again.
    def run(lib, functional):
        logits = lib.tensor(LOGITS, requires_grad=True)
        loss = getattr(functional, loss_name)(logits, lib.tensor(CLASSES))
        node = loss.grad_fn  # NllLossBackward0 for both
        loss.backward(retain_graph=True)
        loss.backward()
        outcomes = [logits.grad.numpy().copy()]
        for attempt in (loss.backward, lambda: node._saved_total_weight, lambda: node._saved_target):
            try:
                attempt()
                outcomes.append("ran")
            except RuntimeError as error:
                outcomes.append(str(error).split(".")[0])
        return outcomes

    (grad, *errors), (torch_grad, *torch_errors) = run(minigrad, F), run(torch, TF)
    np.testing.assert_allclose(grad, torch_grad, rtol=1e-6)
    assert errors == torch_errors == ["Trying to backward through the graph a second time (or directly access "
                                      "saved tensors after they have already been freed)"] * 3


def test_cross_entropy_over_targets_that_are_all_ignored_is_nan_without_a_warning():
    # "mean" divides by the weight of the counted targets: 0 / 0. PyTorch says nan, silently.
    def run(lib, functional):
        logits = lib.tensor(LOGITS[:2], requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            loss = functional.cross_entropy(logits, lib.tensor([1, 1]), ignore_index=1)
            loss.backward()
        return math.isnan(loss.item()), logits.grad.tolist(), [str(w.message) for w in caught]

    assert run(minigrad, F) == run(torch, TF)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_with_probability_targets_matches_torch(reduction):
    probs = np.exp(RNG.standard_normal((6, 4)))
    probs /= probs.sum(1, keepdims=True)
    loss_pair(lambda a, b: F.cross_entropy(a, b, reduction=reduction),
              lambda a, b: TF.cross_entropy(a, b, reduction=reduction), LOGITS, probs)
    w = np.array([1.0, 2.0, 0.5, 3.0])
    loss_pair(lambda a, b: F.cross_entropy(a, b, weight=minigrad.tensor(w), reduction=reduction),
              lambda a, b: TF.cross_entropy(a, b, weight=torch.tensor(w), reduction=reduction), LOGITS, probs)


@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_cross_entropy_unbatched_and_spatial_inputs_match_torch(reduction):
    loss_pair(lambda a, b: F.cross_entropy(a, b, reduction=reduction),
              lambda a, b: TF.cross_entropy(a, b, reduction=reduction), LOGITS[0], np.array(2))
    spatial = RNG.standard_normal((2, 4, 3))
    targets = np.array([[0, 3, 1], [2, 2, 0]])
    loss_pair(lambda a, b: F.cross_entropy(a, b, reduction=reduction),
              lambda a, b: TF.cross_entropy(a, b, reduction=reduction), spatial, targets)


def test_legacy_reduction_arguments_warn_like_torch():
    target = RNG.standard_normal((6, 4))
    with warnings.catch_warnings(record=True) as t_warn:
        warnings.simplefilter("always")
        t_loss = TF.mse_loss(torch.tensor(LOGITS), torch.tensor(target), size_average=False)
        t_module = tnn.CrossEntropyLoss(reduce=False)
    with warnings.catch_warnings(record=True) as m_warn:
        warnings.simplefilter("always")
        m_loss = F.mse_loss(minigrad.tensor(LOGITS), minigrad.tensor(target), size_average=False)
        m_module = nn.CrossEntropyLoss(reduce=False)
    assert [str(w.message) for w in m_warn] == [str(w.message) for w in t_warn]
    close(m_loss, t_loss, rtol=1e-12)
    assert m_module.reduction == t_module.reduction == "none"


def test_loss_argument_errors_match_torch():
    cases = [
        lambda lib: lib.nn.functional.mse_loss(lib.ones(2), lib.ones(2), reduction="bad"),
        lambda lib: lib.nn.functional.cross_entropy(lib.ones(2, 3), lib.tensor([0, 1]), reduction="bad"),
        lambda lib: lib.nn.functional.cross_entropy(lib.ones(2, 3), lib.tensor([0, 1, 2])),
    ]
    for case in cases:
        t = error_text(lambda: case(torch))
        assert t != "no error"
        assert error_text(lambda: case(minigrad)) == as_minigrad(t)


def test_unimplemented_options_raise():
    with pytest.raises(NotImplementedError):
        F.mse_loss(minigrad.ones(2), minigrad.ones(2), weight=minigrad.ones(2))
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):  # PyTorch's error
        nn.Linear(2, 2, device="cuda")
    with pytest.raises(NotImplementedError):
        nn.Linear(2, 2).load_state_dict(nn.Linear(2, 2).state_dict(), assign=True)


def test_mse_loss_with_mismatched_shapes_warns_like_torch_and_broadcasts():
    a, b = RNG.standard_normal(3), RNG.standard_normal((2, 1))
    with warnings.catch_warnings(record=True) as t_warn:
        warnings.simplefilter("always")
        t_loss = TF.mse_loss(torch.tensor(a), torch.tensor(b))
    with pytest.warns(UserWarning) as m_warn:
        m_loss = F.mse_loss(minigrad.tensor(a), minigrad.tensor(b))
    assert [str(w.message) for w in m_warn] == [as_minigrad(str(w.message)) for w in t_warn]
    assert m_warn[0].filename == __file__
    close(m_loss, t_loss, rtol=1e-12)


LINEAR_CASES = [(shape, contiguous, bias) for shape in [(3,), (2, 3), (1, 2, 3), (4, 5, 3), (2, 4, 5, 3)]
                for contiguous in ((True, False) if len(shape) >= 2 else (True,)) for bias in (True, False)]


@pytest.mark.parametrize("shape, contiguous, bias", LINEAR_CASES)
def test_linear_records_pytorchs_graph_for_every_input_shape(shape, contiguous, bias, torch):
    # With a bias PyTorch views a contiguous input as 2-D for one addmm and views the result back;
    # a non-contiguous one goes through matmul and an in-place add.
    def run(lib):
        x = lib.tensor(np.arange(float(np.prod(shape))).reshape(shape) / 3)
        if not contiguous:
            x = x.transpose(0, -1).contiguous().transpose(0, -1)  # the same values, not in C order
        x.requires_grad_()
        w = lib.tensor(np.arange(6.0).reshape(2, 3) / 5, requires_grad=True)
        b = lib.tensor(np.array([0.5, -1.0]), requires_grad=True) if bias else None
        out = lib.nn.functional.linear(x, w, b)
        out.sum().backward()
        grads = [x.grad.numpy(), w.grad.numpy()] + ([b.grad.numpy()] if bias else [])
        return graph_names(out.grad_fn), out._version, tuple(out.shape), grads

    mine, theirs = run(minigrad), run(torch)
    assert mine[:3] == theirs[:3]
    for got, expected in zip(mine[3], theirs[3]):
        np.testing.assert_allclose(got, expected, rtol=1e-12)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(5, 4), (4,)], ids=["batch", "one sample"])
def test_nll_loss_without_weights_gives_the_bits_of_weights_of_one(reduction, dtype, shape):
    # Without weights and ignored targets, nll_loss skips building the weights (all 1): the loss and
    # the gradient must be the weighted way's, bit for bit.
    rng = np.random.default_rng(3)
    logits = rng.standard_normal(shape).astype(dtype)
    target = rng.integers(0, shape[-1], size=shape[:-1])
    results = []
    for weight in (None, minigrad.ones(shape[-1], dtype=getattr(minigrad, dtype))):
        x = minigrad.tensor(logits, requires_grad=True)
        loss = F.nll_loss(F.log_softmax(x, -1), minigrad.tensor(target), weight=weight, reduction=reduction)
        loss.backward(minigrad.ones(loss.shape) if loss.ndim else None)
        results.append((loss.detach().numpy().tobytes(), x.grad.numpy().tobytes()))
    assert results[0] == results[1]
