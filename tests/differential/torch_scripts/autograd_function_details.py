# More custom-Function and hook details, one small graph per cell, as PyTorch's autograd tests check them.
import torch
from torch.autograd import Function
# %% backward returning float64 for a float32 input
class D(Function):
    @staticmethod
    def forward(ctx, x): return x * 2
    @staticmethod
    def backward(ctx, g): return (g * 2).double()
x = torch.tensor([1.0, 2.0], requires_grad=True)
D.apply(x).sum().backward(); print(x.grad, x.grad.dtype)
# %% saved_tensors read twice and after backward
class S(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x); return x * x
    @staticmethod
    def backward(ctx, g):
        a, = ctx.saved_tensors; b, = ctx.saved_tensors
        return g * (a + b)
y = S.apply(x)
y.sum().backward(); print(x.grad)
y.grad_fn.saved_tensors
# %% forward returning an input and a new tensor
class Two(Function):
    @staticmethod
    def forward(ctx, x): return x, x * 3
    @staticmethod
    def backward(ctx, g1, g2): return g1 + 3 * g2
x = torch.tensor([1.0, 2.0], requires_grad=True)
a, b = Two.apply(x)
print(a is x, a.grad_fn.name(), b.grad_fn.name(), a.requires_grad)
(a + b).sum().backward(); print(x.grad)
# %% forward returning a view of its input
class View(Function):
    @staticmethod
    def forward(ctx, x): return x[:1]
    @staticmethod
    def backward(ctx, g): return torch.cat([g, torch.zeros(1)])
x = torch.tensor([1.0, 2.0], requires_grad=True)
v = View.apply(x)
print(v, v.grad_fn.name())
v.sum().backward(); print(x.grad)
# %% needs_input_grad with a tensor that does not require grad
class N(Function):
    @staticmethod
    def forward(ctx, a, b):
        return a * b
    @staticmethod
    def backward(ctx, g):
        print(ctx.needs_input_grad)
        return g, g
N.apply(torch.tensor([1.0], requires_grad=True), torch.tensor([2.0])).backward()
# %% a prehook on AccumulateGrad changes what is accumulated
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.grad_fn.next_functions[0][0].register_prehook(lambda go: (go[0] * 10,))
y.sum().backward(); print(x.grad)
# %% a hook that removes itself
x = torch.tensor([1.0, 2.0], requires_grad=True)
calls = []
def once(g):
    calls.append(1); handle.remove()
handle = x.register_hook(once)
(x * 2).sum().backward(); (x * 2).sum().backward()
print(len(calls), x.grad)
# %% metadata and names
y = x * 2
y.grad_fn.metadata["note"] = "mine"
print(y.grad_fn.metadata, y.grad_fn.next_functions[0][0].name(), y.grad_fn.next_functions[0][0].metadata)
# %% a custom Function inside no_grad then enable_grad
with torch.no_grad():
    with torch.enable_grad():
        print(S.apply(torch.tensor([2.0], requires_grad=True)).grad_fn.name())
# %% custom Function with create_graph on a saved output
class Exp(Function):
    @staticmethod
    def forward(ctx, x):
        r = x.exp(); ctx.save_for_backward(r); return r
    @staticmethod
    def backward(ctx, g):
        r, = ctx.saved_tensors; return g * r
x = torch.tensor([0.5], requires_grad=True)
g, = torch.autograd.grad(Exp.apply(x).sum(), x, create_graph=True)
gg, = torch.autograd.grad(g.sum(), x)
print(g, gg)
# %% hooks see the gradient of a tensor used twice once
x = torch.tensor([1.0], requires_grad=True)
h = x * 2
seen = []
h.register_hook(lambda g: seen.append(g.item()))
(h * h + h).sum().backward(); print(seen, x.grad)
# %% a tensor hook on a non-leaf that returns a new tensor affects upstream
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x.exp()
h.register_hook(lambda g: torch.zeros_like(g))
h.sum().backward(); print(x.grad)
# %% register_hook on a view
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = x * 1
v = b[1:]
v.register_hook(lambda g: g * 100)
(b.sum() + v.sum()).backward(); print(x.grad)
