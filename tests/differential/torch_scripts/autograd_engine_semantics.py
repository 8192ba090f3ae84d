# What backward() and autograd.grad() do, checked in the style of PyTorch's autograd tests:
# small graphs, one question per cell, the answer printed (or the error PyTorch raises).
import torch


# %% backward(inputs=[h]) for a non-leaf h: which hooks fire
def build():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    g = h.exp()
    y = (g * 3).sum()
    calls = []
    h.register_hook(lambda grad: calls.append("tensor hook on h"))
    x.register_hook(lambda grad: calls.append("tensor hook on x"))
    for node in (y.grad_fn, g.grad_fn, h.grad_fn):
        node.register_prehook(lambda grad_outputs, name=node.name(): calls.append(f"prehook {name}"))
        node.register_hook(lambda grad_inputs, grad_outputs, name=node.name():
                           calls.append(f"hook {name} {[g is not None for g in grad_inputs]}"))
    return x, h, y, calls


x, h, y, calls = build()
y.backward(inputs=[h])
print("\n".join(calls))
print(h.grad, x.grad)


# %% autograd.grad with a non-leaf input: its node does not run
x, h, y, calls = build()
print(torch.autograd.grad(y, [h]))
print("\n".join(calls))


# %% after backward(inputs=[h]) the node of h has freed its saved tensors
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * x
h.sum().backward(inputs=[h])
print(h.grad)
h.sum().backward()


# %% backward(inputs=[x]) does not touch other leaves
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
z = a * b
z.grad_fn.register_hook(lambda grad_inputs, grad_outputs: print("grad_inputs:", grad_inputs))
z.sum().backward(inputs=[a])
print(a.grad, b.grad)


# %% autograd.grad computes only what was asked
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
z = a * b
z.grad_fn.register_hook(lambda grad_inputs, grad_outputs: print("grad_inputs:", grad_inputs))
print(torch.autograd.grad(z.sum(), b))


# %% autograd.grad with empty inputs
x = torch.tensor([1.0, 2.0], requires_grad=True)
torch.autograd.grad((x * 2).sum(), [])


# %% backward with empty inputs
x = torch.tensor([1.0, 2.0], requires_grad=True)
(x * 2).sum().backward(inputs=[])


# %% materialize_grads returns zeros for an unused input
x = torch.tensor([1.0, 2.0], requires_grad=True)
unused = torch.tensor([5.0, 6.0, 7.0], requires_grad=True)
print(torch.autograd.grad((x * x).sum(), [x, unused], materialize_grads=True))


# %% materialize_grads with allow_unused=False
torch.autograd.grad((x * x).sum(), [x, unused], materialize_grads=True, allow_unused=False)


# %% allow_unused
print(torch.autograd.grad((x * x).sum(), [x, unused], allow_unused=True))


# %% an unused input without allow_unused
torch.autograd.grad((x * x).sum(), [x, unused])


# %% an input that does not require grad
torch.autograd.grad((x * x).sum(), [torch.tensor([1.0])])


# %% an output that does not require grad
torch.autograd.grad(torch.tensor([1.0]).sum(), [x])


# %% grad_outputs of the wrong shape
torch.autograd.grad(x * x, x, grad_outputs=torch.ones(3))


# %% grad of a non-scalar without grad_outputs
torch.autograd.grad(x * x, x)


# %% grad_outputs count does not match
torch.autograd.grad([x * x, x * 2], x, grad_outputs=[torch.ones(2)])


# %% torch.autograd.backward with several outputs
x = torch.tensor([1.0, 2.0], requires_grad=True)
torch.autograd.backward([x * 2, x * x], [torch.ones(2), torch.tensor([1.0, 10.0])])
print(x.grad)


# %% torch.autograd.backward with a non-scalar output and no gradient
torch.autograd.backward([x * 2])


# %% torch.autograd.backward with a wrong-shaped gradient
torch.autograd.backward(x * 2, torch.ones(3))


# %% torch.autograd.backward with a tensor that does not require grad
torch.autograd.backward(torch.ones(2), torch.ones(2))


# %% backward with a gradient of another dtype
x = torch.tensor([1.0, 2.0], requires_grad=True)
(x * 2).backward(torch.tensor([1.0, 1.0], dtype=torch.float64))
print(x.grad, x.grad.dtype)


# %% y.grad_fn is callable
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
y = x * w
print(y.grad_fn(torch.ones(2)))
s = (x * 2).sum()
print(s.grad_fn(torch.tensor(1.0)))


# %% next_functions for inputs that do not require grad
x = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.tensor([3.0, 4.0])
y = x * c + c
print([(fn.name() if fn is not None else None, i) for fn, i in y.grad_fn.next_functions])
print([(fn.name() if fn is not None else None, i) for fn, i in y.grad_fn.next_functions[0][0].next_functions])
print(y.grad_fn.next_functions[0][0].next_functions[0][0].variable is x)


# %% retain_grad then an in-place op
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.retain_grad()
y.mul_(2)
(y * y).sum().backward()
print(y.grad, x.grad, y.grad_fn.name())


# %% retain_grad after an in-place op
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.mul_(2)
y.retain_grad()
(y * y).sum().backward()
print(y.grad, x.grad)


# %% retain_grad on a view
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 1
v = y[:2]
v.retain_grad()
(v * 10).sum().backward()
print(v.grad, x.grad)


# %% retain_grad on a base modified through a view
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 1
y.retain_grad()
y[:2].mul_(5)
y.sum().backward()
print(y.grad, x.grad, y.grad_fn.name())


# %% retain_grad on a leaf and on a tensor without grad
x = torch.tensor([1.0], requires_grad=True)
x.retain_grad()
print(x.retains_grad)
torch.tensor([1.0]).retain_grad()


# %% .numpy() under no_grad on a tensor that requires grad
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    print(x.numpy())


# %% .numpy() on a tensor that requires grad
x.numpy()


# %% @torch.no_grad() on a generator function
@torch.no_grad()
def doubles(t):
    for _ in range(2):
        out = t * 2
        yield out.requires_grad, torch.is_grad_enabled()


x = torch.tensor([1.0], requires_grad=True)
for step in doubles(x):
    print(step, torch.is_grad_enabled())


# %% @torch.enable_grad() on a generator function inside no_grad
@torch.enable_grad()
def with_grad(t):
    yield (t * 2).requires_grad
    yield torch.is_grad_enabled()


with torch.no_grad():
    for value in with_grad(x):
        print(value, torch.is_grad_enabled())


# %% no_grad as a decorator without parentheses
@torch.no_grad
def triple(t):
    return t * 3


print(triple(x).requires_grad)


# %% set_grad_enabled as a function
torch.set_grad_enabled(False)
print((x * 2).requires_grad)
torch.set_grad_enabled(True)
print((x * 2).requires_grad)


# %% detect_anomaly when a backward raises
class Fails(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        raise ValueError("boom")


import warnings

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        with torch.autograd.detect_anomaly():
            Fails.apply(torch.tensor([1.0], requires_grad=True)).sum().backward()
    except ValueError as error:
        print("ValueError:", error)
for w in caught:
    print(w.category.__name__, str(w.message).splitlines()[0])


# %% detect_anomaly and a NaN gradient
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        with torch.autograd.detect_anomaly():
            x = torch.tensor([0.0], requires_grad=True)
            (x.sqrt() * 0).sum().backward()
            print(x.grad)
            y = torch.tensor([-1.0], requires_grad=True)
            y.sqrt().sum().backward()
    except RuntimeError as error:
        print("RuntimeError:", error)
for w in caught:
    print(w.category.__name__, str(w.message).splitlines()[0])


# %% backward twice without retain_graph
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward()
y.backward()


# %% accumulating gradients over calls, then zeroing
x = torch.tensor([1.0, 2.0], requires_grad=True)
for _ in range(3):
    (x * x).sum().backward()
print(x.grad)
x.grad.zero_()
print(x.grad)
x.grad = None
print(x.grad)


# %% detach shares memory and version
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
d = y.detach()
d.add_(1)
print(y, d, d.requires_grad, y._version, d._version)


# %% detach_ on a non-leaf
y = x * 2
y.detach_()
print(y.requires_grad, y.grad_fn, y.is_leaf)


# %% requires_grad on a non-leaf
y = x * 2
y.requires_grad = False


# %% requires_grad_ on an integer tensor
torch.tensor([1, 2]).requires_grad_()


# %% the .grad of a non-leaf warns
y = x * 2
y.sum().backward()
print(y.grad)


# %% create_graph and a second derivative
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
(dy,) = torch.autograd.grad(y, x, create_graph=True)
(d2y,) = torch.autograd.grad(dy, x)
print(dy, d2y)


# %% second derivative through relu
x = torch.tensor([-1.0, 2.0], requires_grad=True)
y = torch.relu(x) ** 2
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
(gg,) = torch.autograd.grad(g.sum(), x)
print(g, gg)


# %% calling a node by hand
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * torch.tensor([3.0, 4.0])
print(y.grad_fn(torch.ones(2)))
with torch.no_grad():
    print(y.grad_fn(torch.ones(2)))
print((x * x).sum().grad_fn(torch.tensor(2.0)))


# %% calling a node with the wrong number of gradients
y.grad_fn(torch.ones(2), torch.ones(2))


# %% calling an AccumulateGrad node
acc = y.grad_fn.next_functions[0][0]
print(acc(torch.ones(2)), x.grad)
