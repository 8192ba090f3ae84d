# A tutorial-style script: fit a cubic with a custom autograd Function and a hand-written
# SGD loop, then look at the graph and the gradients it leaves behind.
import math

import torch


# %% a custom Function for the Legendre polynomial P3
class LegendrePolynomial3(torch.autograd.Function):
    """P3(x) = (5x^3 - 3x) / 2, with its derivative 1.5 (5x^2 - 1)."""

    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        (input,) = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)


x = torch.linspace(-math.pi, math.pi / 2, 20)
y = torch.sin(x)
print(x.shape, y[:3])


# %% the parameters
dtype = torch.float
a = torch.full((), 0.0, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, dtype=dtype, requires_grad=True)
c = torch.full((), 0.0, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, dtype=dtype, requires_grad=True)
print(a, b, c, d)


# %% one forward pass and its graph
P3 = LegendrePolynomial3.apply
y_pred = a + b * P3(c + d * x)
loss = (y_pred - y).pow(2).sum()
print(loss.grad_fn)
print(loss.grad_fn.next_functions[0][0].name())
print(y_pred.grad_fn.next_functions[1][0].next_functions[1][0].name())


# %% backward and the gradients
loss.backward()
for name, p in zip("abcd", (a, b, c, d)):
    print(name, p.grad)


# %% a few steps of gradient descent
learning_rate = 5e-6
for t in range(5):
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
    print(t, round(loss.item(), 2))
print(a.is_leaf, a.requires_grad, a.grad)


# %% the update without no_grad
a -= learning_rate * torch.tensor(1.0)


# %% the custom op checked against finite differences
x64 = torch.tensor([0.3, -0.7, 1.1], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(P3, (x64,)))
print(torch.autograd.gradgradcheck(P3, (x64,)))


# %% the same derivative from autograd.grad
(g,) = torch.autograd.grad(P3(x64).sum(), x64)
print(g)
print(1.5 * (5 * x64.detach() ** 2 - 1))
