# torch.autograd.functional and higher-order gradients as an optimisation lecture uses them.
import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp


def f(x):
    return (x ** 3).sum() + x[0] * x[1]


def g(x):
    return torch.stack([x[0] * x[1], x[1].sin(), x.pow(2).sum()])


x = torch.tensor([1.0, 2.0])

# %% jacobian and hessian
print(jacobian(g, x))
print(hessian(f, x))
print(jacobian(g, x, create_graph=True).requires_grad, jacobian(g, x, vectorize=True))
print(jacobian(lambda a, b: a * b, (x, x + 1)))

# %% products
print(vjp(g, x, torch.ones(3)))
print(jvp(g, x, torch.tensor([1.0, 0.0])))
print(hvp(f, x, torch.tensor([1.0, 1.0])))
print(vhp(f, x, torch.tensor([0.0, 1.0])))

# %% by hand: a gradient of a gradient
w = torch.tensor([1.0, 2.0], requires_grad=True)
y = f(w)
(gw,) = torch.autograd.grad(y, w, create_graph=True)
print(gw, gw.grad_fn is not None)
(h0,) = torch.autograd.grad(gw[0], w, retain_graph=True)
(h1,) = torch.autograd.grad(gw[1], w)
print(torch.stack([h0, h1]))

# %% Newton's method on a 1-D function
t = torch.tensor(3.0, requires_grad=True)
for step in range(4):
    loss = (t - 1.0) ** 4 + t ** 2
    (d1,) = torch.autograd.grad(loss, t, create_graph=True)
    (d2,) = torch.autograd.grad(d1, t)
    with torch.no_grad():
        t -= d1 / d2
    print(step, f"{t.item():.6f}")

# %% a gradient penalty
torch.manual_seed(0)
lin = torch.nn.Linear(2, 1)
inp = torch.randn(4, 2, requires_grad=True)
out = lin(inp).sum()
(gi,) = torch.autograd.grad(out, inp, create_graph=True)
penalty = ((gi.norm(dim=1) - 1) ** 2).mean()
penalty.backward()
print(f"{penalty.item():.5f}", lin.weight.grad)

# %% mistake: strict with an output independent of the input
jacobian(lambda a: torch.ones(2), x, strict=True)

# %% mistake: grad of a non-scalar without grad_outputs
torch.autograd.grad(g(w), w)

# %% mistake: a second grad through a freed graph
y = f(w)
torch.autograd.grad(y, w)
torch.autograd.grad(y, w)

# %% mistake: an input that was not used
z = torch.tensor(1.0, requires_grad=True)
torch.autograd.grad(f(w), [w, z])
