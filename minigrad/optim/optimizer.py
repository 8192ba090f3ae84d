"""``Optimizer``: the base class that holds parameters in groups and resets their gradients.

An optimizer keeps ``param_groups``, a list of dicts: each has the key
``"params"`` (a list of tensors) plus its own hyper-parameters (``"lr"``, ...),
taken from the optimizer's ``defaults`` where the group does not say.
Per-parameter memory (momentum buffers, running averages) lives in
``state[param]``. Subclasses define ``step()``.

Updates are written straight into each parameter's NumPy array, which is what
an in-place op inside ``no_grad()`` does, minus the temporary Tensors; the
parameter's version counter is bumped exactly as an in-place op bumps it, so
autograd still notices that a saved parameter changed.
"""

import copy
import warnings
from collections import defaultdict

from ..grad_mode import enable_grad, no_grad
from ..nn.module import _typename
from ..tensor import Tensor


def _bump_version(param):
    """Record an in-place change of ``param`` (as ``add_`` would): saved copies become stale."""
    param._shared_version_counter().value += 1


class Optimizer:
    """Base class of all optimizers.

    Args:
        params: an iterable of Tensors, of ``(name, Tensor)`` pairs, or of dicts
            (parameter groups, each with a ``"params"`` key and its own options).
        defaults: the options a group gets when it does not set them.

    Raises:
        TypeError: if ``params`` is a single Tensor or holds something else.
        ValueError: if it is empty, holds a non-leaf, or a parameter is in two groups.
    """

    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            "but got " + _typename(params))
        self.state = defaultdict(dict)  # keyed by the parameter itself (Tensors hash by identity)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def add_param_group(self, param_group):
        """Add a group of parameters with its own options (e.g. a different ``lr``)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering "
                            "of tensors in sets will change between runs. Please use a list instead.")
        else:
            params = list(params)
        names = [p[0] for p in params if isinstance(p, tuple)]
        param_group["params"] = [p[1] if isinstance(p, tuple) else p for p in params]
        if names:
            if len(names) != len(params):
                raise ValueError("all optimizer params should be with/without names. Some param names are missing")
            param_group["param_names"] = names
        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is " + _typename(param))
            if not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            param_group.setdefault(name, default)
        params = param_group["params"]
        if len(params) != len(set(params)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; "
                          "in future, this will cause an error; "
                          "see github.com/pytorch/pytorch/issues/40967 for more information", stacklevel=3)
        existing = set()
        for group in self.param_groups:
            existing.update(group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                which = "with names" if "param_names" in param_group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {which} to the optimizer")
        if not existing.isdisjoint(params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        """Reset the gradients of all parameters: to None (default), or fill them with zeros."""
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                else:
                    if p.grad.grad_fn is not None:
                        p.grad.detach_()
                    else:
                        p.grad.requires_grad_(False)
                    p.grad.zero_()

    def step(self, closure=None):
        """Update every parameter that has a gradient; return ``closure()`` if given.

        Each optimizer's own rule is its ``_update_group(group)``, run with
        recording off so the in-place updates are not part of any graph.

        Args:
            closure: optional function that recomputes the loss (run with grad enabled).
        """
        self._opt_called = True  # read by the learning-rate schedulers, as in PyTorch
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        with no_grad():
            for group in self.param_groups:
                self._update_group(group)
        return loss

    def state_dict(self):
        """The optimizer's state as plain data: ``{"state": {index: {...}}, "param_groups": [...]}``.

        Parameters are replaced by their position over all groups, so the dict can be
        loaded into a new optimizer over a new model of the same shape.

        >>> import minigrad
        >>> w = minigrad.nn.Parameter(minigrad.zeros(2))
        >>> minigrad.optim.SGD([w], lr=0.1).state_dict()["param_groups"][0]["params"]
        [0]
        """
        index_of, groups = {}, []
        for group in self.param_groups:
            packed = {key: value for key, value in group.items() if key != "params"}
            for p in group["params"]:
                index_of.setdefault(p, len(index_of))
            packed["params"] = [index_of[p] for p in group["params"]]
            groups.append(packed)
        state = {index_of[p]: value for p, value in self.state.items() if p in index_of}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        """Take the options and per-parameter state saved by ``state_dict()`` (copied, not shared).

        Raises:
            ValueError: if the groups or their sizes do not match this optimizer's.
        """
        groups, saved_groups = self.param_groups, state_dict["param_groups"]
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                             "optimizer's group")
        param_of = {index: p for saved, group in zip(saved_groups, groups)
                    for index, p in zip(saved["params"], group["params"])}
        self.state = defaultdict(dict)
        for index, value in state_dict["state"].items():
            if index in param_of:
                self.state[param_of[index]] = {
                    key: v.clone() if isinstance(v, Tensor) else copy.deepcopy(v) for key, v in value.items()}
        self.param_groups = [{**saved, "params": group["params"]} for saved, group in zip(saved_groups, groups)]

    def _update_group(self, group):
        raise NotImplementedError(f"{type(self).__name__} must define _update_group")

    def __repr__(self):
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"


def _not_implemented(**flags):
    """PyTorch options that only choose an implementation or need machinery minigrad lacks."""
    for name, value in flags.items():
        if value:
            raise NotImplementedError(f"minigrad's optimizers do not implement {name}=True")
