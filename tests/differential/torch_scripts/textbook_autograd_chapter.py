# A textbook's autograd chapter, as a learner types it into a notebook: gradients of
# a dot product, of a sum, of a non-scalar output, detaching, and Python control flow.
import torch

# %% a vector and its gradient slot
x = torch.arange(4.0)
print(x)
x.requires_grad_(True)
print(x.grad)

# %% y = 2 x.x
y = 2 * torch.dot(x, x)
print(y)
y.backward()
print(x.grad)
print(x.grad == 4 * x)

# %% reset, then another function
x.grad.zero_()
y = x.sum()
y.backward()
print(x.grad)

# %% a non-scalar output needs a gradient argument
x.grad.zero_()
y = x * x
y.backward(gradient=torch.ones(len(y)))
print(x.grad)

# %% a non-scalar output without one
x.grad.zero_()
y = x * x
y.backward()

# %% detaching part of the computation
x.grad.zero_()
y = x * x
u = y.detach()
z = u * x
z.sum().backward()
print(x.grad == u)
x.grad.zero_()
y.sum().backward()
print(x.grad == 2 * x)

# %% gradients through Python control flow
def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c

a = torch.tensor(0.3, requires_grad=True)
d = f(a)
d.backward()
print(a.grad == d / a)
print(a.grad)

# %% exercises: a vector through control flow, and the second derivative of sin
a = torch.tensor([0.5, -1.0], requires_grad=True)
d = f(a)
d.sum().backward()
print(a.grad)
t = torch.linspace(-3.0, 3.0, 7, requires_grad=True)
s = torch.sin(t)
(g,) = torch.autograd.grad(s.sum(), t, create_graph=True)
print(torch.allclose(g, torch.cos(t)))
(h,) = torch.autograd.grad(g.sum(), t)
print(h)
