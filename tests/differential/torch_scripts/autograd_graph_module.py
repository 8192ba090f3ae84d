# torch.autograd.graph, as its documentation's examples use it: hooks on saved tensors,
# one hook for several tensors, and the Node class. Then the mistakes PyTorch refuses.
import torch
from torch.autograd.graph import saved_tensors_hooks


# %% pack and unpack hooks see every saved tensor
packed, unpacked = [], []


def pack(t):
    packed.append(tuple(t.shape))
    return t


def unpack(t):
    unpacked.append(tuple(t.shape))
    return t


a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
with saved_tensors_hooks(pack, unpack):
    y = (a * b).exp().sum()
print("packed:", packed)
y.backward()
print("unpacked:", unpacked)
print(a.grad)


# %% hooks that store a copy elsewhere
storage = {}


def pack_to_storage(t):
    key = len(storage)
    storage[key] = t.detach().clone()
    return key


def unpack_from_storage(key):
    return storage[key]


x = torch.tensor([0.5, 1.5], requires_grad=True)
with saved_tensors_hooks(pack_to_storage, unpack_from_storage):
    y = (x.sin() * x).sum()
print(sorted(storage))
y.backward()
print(x.grad)


# %% _saved_self goes through the unpack hook
x = torch.tensor([2.0, 3.0], requires_grad=True)
with saved_tensors_hooks(lambda t: t * 10, lambda t: t + 1):
    y = x * x
print(y.grad_fn._saved_self)
y.sum().backward()
print(x.grad)


# %% outside the with block no hook runs
count = []
with saved_tensors_hooks(lambda t: count.append("pack") or t, lambda t: count.append("unpack") or t):
    pass
x = torch.tensor([2.0, 3.0], requires_grad=True)
(x * x).sum().backward()
print(count)


# %% nested hooks: the innermost one is used
calls = []
with saved_tensors_hooks(lambda t: calls.append("outer pack") or t, lambda t: calls.append("outer unpack") or t):
    with saved_tensors_hooks(lambda t: calls.append("inner pack") or t, lambda t: calls.append("inner unpack") or t):
        y = x.exp()
    z = y.sin()
(y.sum() + z.sum()).backward()
print(calls)


# %% hooks with a custom Function
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


calls = []
x = torch.tensor([1.0, 4.0], requires_grad=True)
with saved_tensors_hooks(lambda t: calls.append("pack") or t, lambda t: calls.append("unpack") or t):
    y = Square.apply(x)
y.sum().backward()
print(calls, x.grad)


# %% save_on_cpu
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.graph.save_on_cpu():
    y = (x * x.exp()).sum()
y.backward()
print(x.grad)


# %% disable_saved_tensors_hooks
with torch.autograd.graph.disable_saved_tensors_hooks("no saved tensors hooks here"):
    with saved_tensors_hooks(lambda t: t, lambda t: t):
        pass


# %% register_multi_grad_hook, mode all
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0], requires_grad=True)
c = torch.tensor([5.0], requires_grad=True)
seen = []
handle = torch.autograd.graph.register_multi_grad_hook(
    (a, b, c), lambda grads: seen.append([None if g is None else g.tolist() for g in grads]))
(a.sum() * b).sum().backward()
print(seen)
(a * c).sum().backward()
print(seen)
handle.remove()
(a * b * c).sum().backward()
print(len(seen))


# %% register_multi_grad_hook on non-leaf tensors
x = torch.tensor([1.0, 2.0], requires_grad=True)
h1 = x * 2
h2 = x.exp()
seen = []
torch.autograd.graph.register_multi_grad_hook((h1, h2), lambda grads: seen.append([g.shape for g in grads]))
(h1 * h2).sum().backward()
print(seen, x.grad)


# %% register_multi_grad_hook, mode any
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0], requires_grad=True)
seen = []
torch.autograd.graph.register_multi_grad_hook((a, b), lambda grad: seen.append(grad.tolist()), mode="any")
(a * b).sum().backward()
print(seen)


# %% register_multi_grad_hook with autograd.grad
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0], requires_grad=True)
seen = []
torch.autograd.graph.register_multi_grad_hook((a, b), lambda grads: seen.append([g is None for g in grads]))
print(torch.autograd.grad((a * b).sum(), a))
print(seen)


# %% register_multi_grad_hook with a bad mode
torch.autograd.graph.register_multi_grad_hook((a, b), lambda grads: None, mode="some")


# %% Node is the class of every grad_fn
x = torch.tensor([1.0], requires_grad=True)
y = x.exp()
print(isinstance(y.grad_fn, torch.autograd.graph.Node))
print(isinstance(y.grad_fn.next_functions[0][0], torch.autograd.graph.Node))
print(isinstance(Square.apply(x).grad_fn, torch.autograd.graph.Node))
print(y.grad_fn.name(), y.grad_fn.metadata)


# %% get_gradient_edge
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 2
edge = torch.autograd.graph.get_gradient_edge(h)
print(edge.node.name(), edge.output_nr, edge.node is h.grad_fn)
leaf_edge = torch.autograd.graph.get_gradient_edge(x)
print(leaf_edge.node.name(), leaf_edge.output_nr)


# %% autograd.grad with a gradient edge as input
y = (h * h).sum()
print(torch.autograd.grad(y, edge))


# %% get_gradient_edge of a tensor that does not require grad
torch.autograd.graph.get_gradient_edge(torch.tensor([1.0]))


# %% an unpack hook that does not return a tensor
x = torch.tensor([1.0, 2.0], requires_grad=True)
with saved_tensors_hooks(lambda t: t, lambda t: 3):
    y = x * x
y.sum().backward()


# %% a second derivative through hooked saved tensors
x = torch.tensor([1.0, 2.0], requires_grad=True)
with saved_tensors_hooks(lambda t: t.detach().clone(), lambda t: t):
    y = (x ** 3).sum()
(g,) = torch.autograd.grad(y, x, create_graph=True)
(gg,) = torch.autograd.grad(g.sum(), x)
print(g, gg)


# %% an in-place change after saving with hooks is not checked
x = torch.tensor([1.0, 2.0], requires_grad=True)
a = x * 1
with saved_tensors_hooks(lambda t: t.clone(), lambda t: t):
    y = a * a
a.add_(1)
y.sum().backward()
print(x.grad)


# %% register_multi_grad_hook and backward(inputs=)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0], requires_grad=True)
seen = []
torch.autograd.graph.register_multi_grad_hook((a, b), lambda grads: seen.append([g is None for g in grads]))
(a * b).sum().backward(inputs=[b])
print(seen, a.grad, b.grad)
