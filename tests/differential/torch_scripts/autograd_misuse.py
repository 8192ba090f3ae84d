# Wrong calls a learner makes with autograd, and a few right ones next to them:
# each cell either prints what PyTorch gives or ends with the error PyTorch raises.
import torch


# %% backward on a tensor that does not require grad
x = torch.tensor([1.0, 2.0])
(x * 2).sum().backward()


# %% backward on a result computed under no_grad
w = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = (w * 2).sum()
print(y.requires_grad, y.grad_fn, y.is_leaf)
y.backward()


# %% backward on a non-scalar without a gradient
(w * 2).backward()


# %% backward with a gradient of the wrong shape
(w * 2).backward(torch.ones(3))


# %% backward with a plain list as gradient
(w * 2).backward([1.0, 1.0])


# %% autograd.grad twice through the same graph
y = (w * w).sum()
print(torch.autograd.grad(y, w))
torch.autograd.grad(y, w)


# %% autograd.grad with retain_graph, then backward
y = (w * w).sum()
print(torch.autograd.grad(y, w, retain_graph=True))
y.backward()
print(w.grad)


# %% grad_outputs given as None for a scalar
w.grad = None
print(torch.autograd.grad((w * 3).sum(), w, grad_outputs=None))
print(torch.autograd.grad([(w * 3).sum()], [w], grad_outputs=[None]))


# %% is_grads_batched
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2
print(torch.autograd.grad(y, x, torch.eye(3), is_grads_batched=True))


# %% is_grads_batched with a wrong batch
torch.autograd.grad(x ** 2, x, torch.ones(3), is_grads_batched=True)


# %% requires_grad on an integer tensor
torch.tensor([1, 2], requires_grad=True)


# %% requires_grad_(False) on a non-leaf
y = w * 2
y.requires_grad_(False)


# %% detach().requires_grad_() makes a new leaf
d = (w * 2).detach().requires_grad_()
print(d.is_leaf, d.requires_grad, d.grad_fn)
(d * d).sum().backward()
print(d.grad)


# %% the grad of an intermediate is None with a warning
h = w * 2
(h * h).sum().backward()
print(h.grad)


# %% zeroing grads the old way
w = torch.tensor([1.0, 2.0], requires_grad=True)
(w * w).sum().backward()
w.grad.data.zero_()
print(w.grad)
(w * 3).sum().backward()
print(w.grad)


# %% Variable, as in PyTorch 0.3 tutorials
from torch.autograd import Variable

v = Variable(torch.tensor([2.0, 3.0]), requires_grad=True)
out = (v * v).mean()
out.backward()
print(v.grad, v.data, type(v).__name__)


# %% an in-place op on a leaf that requires grad
w = torch.tensor([1.0, 2.0], requires_grad=True)
w.add_(1)


# %% an in-place op on a leaf under no_grad
with torch.no_grad():
    w.add_(1)
print(w, w.is_leaf, w._version)


# %% an in-place change of a tensor saved for backward
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 1
c = b.exp()
b.add_(1)
c.sum().backward()


# %% an in-place change that backward does not need
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 1
c = b + 2
b.add_(1)
c.sum().backward()
print(a.grad)


# %% inference_mode
with torch.inference_mode():
    t = torch.tensor([1.0, 2.0]) * 2
print(t.requires_grad, torch.is_inference_mode_enabled())


# %% grad mode state inside nested contexts
with torch.no_grad():
    with torch.enable_grad():
        print(torch.is_grad_enabled())
    print(torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())


# %% a hook registered under no_grad still runs
w = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    w.register_hook(lambda g: g * 10)
(w * w).sum().backward()
print(w.grad)


# %% a saved tensor read after backward
w = torch.tensor([1.0, 2.0], requires_grad=True)
y = w * w
print(y.grad_fn._saved_self)
y.sum().backward()
y.grad_fn._saved_self


# %% a second backward through a graph with retain_graph
w = torch.tensor([1.0, 2.0], requires_grad=True)
y = (w * w).sum()
y.backward(retain_graph=True)
y.backward()
print(w.grad)


# %% backward through an integer result
i = torch.tensor([1, 2])
(i * w).sum().backward()
print(w.grad)


# %% .item() of tensors that require grad
w = torch.tensor([2.5], requires_grad=True)
print(w.item(), (w * 2).item())


# %% .tolist() of a tensor that requires grad
print((w * 2).tolist())


# %% is_grads_batched with two outputs and create_graph
x = torch.tensor([1.0, 2.0], requires_grad=True)
jac_rows = torch.autograd.grad((x ** 3, x.sum()), x, (torch.eye(2), torch.ones(2)), is_grads_batched=True,
                               create_graph=True)
print(jac_rows[0].detach(), jac_rows[0].requires_grad)


# %% a numpy array as gradient
import numpy as np

(x * 2).backward(np.ones(2))
