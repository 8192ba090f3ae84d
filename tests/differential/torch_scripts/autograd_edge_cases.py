# Edge cases in PyTorch's autograd-test style: one small graph per cell, the gradients printed.
import torch
# %% only_inputs
x = torch.tensor([1.0, 2.0], requires_grad=True)
print(torch.autograd.grad((x * x).sum(), x, only_inputs=False))
# %% grad of a leaf w.r.t. itself
print(torch.autograd.grad(x, x, torch.ones(2)))
# %% backward on a leaf
x.backward(torch.tensor([1.0, 3.0]))
print(x.grad)
# %% grad w.r.t. an output that is also input
y = x * 2
print(torch.autograd.grad(y, [y, x], torch.ones(2)))
# %% create_graph grad is differentiable, requires_grad
y = (x ** 2).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g.requires_grad, g.grad_fn.name(), g.is_leaf)
# %% backward with create_graph then grad.grad_fn
x2 = torch.tensor([1.0, 2.0], requires_grad=True)
(x2 ** 3).sum().backward(create_graph=True)
print(x2.grad, x2.grad.grad_fn.name(), x2.grad.requires_grad)
# %% retain_grad on result of a custom function
class Id(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a): return a.clone()
    @staticmethod
    def backward(ctx, g): return g
z = Id.apply(x)
z.retain_grad()
(z * 3).sum().backward()
print(z.grad)
# %% hook on output of custom function
z = Id.apply(x)
z.register_hook(lambda g: g * 100)
x.grad = None
(z * 3).sum().backward()
print(x.grad)
# %% requires_grad toggling inside function
def f(t):
    t.requires_grad_()
    return (t * t).sum()
t = torch.tensor([3.0])
f(t).backward(); print(t.grad)
# %% grad of an output that does not depend on the input
a = torch.tensor(1.0, requires_grad=True); b = torch.tensor(2.0, requires_grad=True)
torch.autograd.grad(a * 2, b)
# %% backward with inputs not in graph
(a * 2).backward(inputs=[b]); print(a.grad, b.grad)
# %% saved tensor after no_grad modification
a = torch.tensor([1.0, 2.0], requires_grad=True)
y = a.sigmoid()
with torch.no_grad():
    y.mul_(2)
y.sum().backward()
# %% torch.autograd.functional.vjp
print(torch.autograd.functional.vjp(lambda t: t ** 2, torch.tensor([1.0, 2.0]), torch.ones(2)))
# %% grad_fn metadata & name of views
v = a[0]
print(v.grad_fn.name(), a.view(2,1).grad_fn, a.t().grad_fn if a.dim()==2 else None)
# %% set_detect_anomaly as function
torch.autograd.set_detect_anomaly(True)
print(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(False)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
# %% gradient of max with ties
m = torch.tensor([1.0, 3.0, 3.0], requires_grad=True)
m.max().backward(); print(m.grad)
# %% grad of abs at 0 and sqrt at 0
z0 = torch.tensor([0.0], requires_grad=True)
z0.abs().backward(); print(z0.grad)
z0.grad=None; z0.sqrt().backward(); print(z0.grad)
# %% norm at zero
n = torch.zeros(2, requires_grad=True)
n.norm().backward(); print(n.grad)

# %% a multi-output node called by hand
x = torch.tensor([1.0, 2.0], requires_grad=True)
u = x.unbind()
print(u[0].grad_fn.name(), u[0].output_nr, u[1].output_nr)
print(u[0].grad_fn(torch.tensor(1.0), None))
# %% split outputs and a hook on one of them
a, b = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True).split(2)
b.register_hook(lambda g: g * 10)
(a.sum() + b.sum()).backward()
# %% a hook on a leaf that is used in two graphs
x = torch.tensor([1.0], requires_grad=True)
calls = []
x.register_hook(lambda g: calls.append(g.item()))
y1 = x * 2
y2 = x * 3
y1.backward(); y2.backward()
print(calls, x.grad)
# %% backward on a list of tensors through torch.autograd.backward with None gradients
x = torch.tensor(2.0, requires_grad=True)
torch.autograd.backward([x * 2, x * x], [None, None])
print(x.grad)
# %% grad with a tuple of outputs and allow_unused
w = torch.tensor(1.0, requires_grad=True)
print(torch.autograd.grad((x * 2, x * 3), (x, w), allow_unused=True))
# %% retain_grad twice and retains_grad
h = x * 2
h.retain_grad(); h.retain_grad()
print(h.retains_grad)
h.backward()
print(h.grad)
# %% register_hook returns a handle; removing twice is fine
x = torch.tensor([1.0], requires_grad=True)
handle = x.register_hook(lambda g: g * 2)
handle.remove(); handle.remove()
(x * 1).sum().backward(); print(x.grad)
