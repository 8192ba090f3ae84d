# Fitting sin(x) with a cubic, the way introductory "learn by examples" tutorials build it up:
# tensors and manual gradients, then autograd, then a custom Function, then nn and optim.
import math

import torch

dtype = torch.float
device = torch.device("cpu")

# %% data
x = torch.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
y = torch.sin(x)
print(x.shape, x.dtype, x.device)
print(x[:3], y[-3:])

# %% weights from fixed values, trained with autograd
a = torch.tensor(0.1, device=device, dtype=dtype, requires_grad=True)
b = torch.tensor(-0.2, device=device, dtype=dtype, requires_grad=True)
c = torch.tensor(0.3, device=device, dtype=dtype, requires_grad=True)
d = torch.tensor(0.05, device=device, dtype=dtype, requires_grad=True)
learning_rate = 1e-6
for t in range(300):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, round(loss.item(), 2))
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
print(f"Result: y = {a.item():.4f} + {b.item():.4f} x + {c.item():.4f} x^2 + {d.item():.4f} x^3")

# %% a custom autograd Function
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        (input,) = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)

P3 = LegendrePolynomial3.apply
a = torch.full((), 0.0, device=device, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, device=device, dtype=dtype, requires_grad=True)
c = torch.full((), 0.0, device=device, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, device=device, dtype=dtype, requires_grad=True)
for t in range(200):
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c, d):
            p -= 5e-6 * p.grad
            p.grad = None
print(round(loss.item(), 1), y_pred.grad_fn.name())

# %% the nn package: features x, x^2, x^3 and a linear layer flattened to one output
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
print(xx.shape, xx.dtype)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
print(model)
print(len(model), model[0], model[1])
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.1, 0.0, -0.05]]))
    model[0].bias.fill_(0.0)
loss_fn = torch.nn.MSELoss(reduction="sum")
for t in range(100):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= 1e-6 * param.grad
linear_layer = model[0]
print(f"Result: y = {linear_layer.bias.item():.4f} + {linear_layer.weight[:, 0].item():.4f} x "
      f"+ {linear_layer.weight[:, 1].item():.4f} x^2 + {linear_layer.weight[:, 2].item():.4f} x^3")

# %% the same with an optimizer
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
for t in range(100):
    loss = loss_fn(model(xx), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(round(loss.item(), 0) < 1000, loss.grad_fn.name())

# %% a custom Module
class Polynomial3(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.tensor(0.0))
        self.b = torch.nn.Parameter(torch.tensor(1.0))
        self.c = torch.nn.Parameter(torch.tensor(0.0))
        self.d = torch.nn.Parameter(torch.tensor(-0.1))

    def forward(self, x):
        return self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3

    def string(self):
        return f"y = {self.a.item():.3f} + {self.b.item():.3f} x + {self.c.item():.3f} x^2 + {self.d.item():.3f} x^3"

model = Polynomial3()
print(model)
print([name for name, _ in model.named_parameters()])
optimizer = torch.optim.SGD(model.parameters(), lr=1e-6, momentum=0.9)
for t in range(50):
    loss = torch.nn.functional.mse_loss(model(x), y, reduction="sum")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(model.string())
