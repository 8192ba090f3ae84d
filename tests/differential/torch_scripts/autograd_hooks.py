# Hooks, the way a lecture on autograd inspects them: print every hook call, in order,
# and see what a hook may return. Then the mistakes PyTorch refuses.
import torch


# %% order of hooks at a leaf
calls = []
x = torch.tensor([1.0, 2.0], requires_grad=True)
x.register_hook(lambda g: calls.append(("tensor hook", g.tolist())))
x.register_post_accumulate_grad_hook(lambda t: calls.append(("post accumulate", t.grad.tolist())))
y = x * 3
acc = y.grad_fn.next_functions[0][0]
acc.register_prehook(lambda grads: calls.append(("node prehook", grads[0].tolist())))
acc.register_hook(lambda grad_inputs, grad_outputs: calls.append(("node hook", len(grad_inputs), grad_outputs[0].tolist())))
y.sum().backward()
for call in calls:
    print(call)
print(x.grad)


# %% order of hooks at a non-leaf, with retain_grad
calls = []
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 2
h.register_hook(lambda g: calls.append(("first hook", g.tolist())) or g * 10)
h.retain_grad()
h.register_hook(lambda g: calls.append(("second hook", g.tolist())))
h.grad_fn.register_prehook(lambda grads: calls.append(("prehook", grads[0].tolist())))
h.grad_fn.register_hook(lambda gi, go: calls.append(("post hook", gi[0].tolist(), go[0].tolist())))
(h * h).sum().backward()
for call in calls:
    print(call)
print(h.grad, x.grad)


# %% retain_grad registered before a hook that changes the gradient
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 2
h.retain_grad()
h.register_hook(lambda g: g * 100)
h.sum().backward()
print(h.grad, x.grad)


# %% a tensor hook returning a new gradient on a leaf
x = torch.tensor([1.0, 2.0], requires_grad=True)
x.register_hook(lambda g: g + 1)
x.register_hook(lambda g: g * 2)
(x * x).sum().backward()
print(x.grad)


# %% removing a hook
x = torch.tensor([1.0, 2.0], requires_grad=True)
handle = x.register_hook(lambda g: g * 0)
handle.remove()
(x * x).sum().backward()
print(x.grad)


# %% a post-accumulate-grad hook that returns a value
x = torch.tensor([1.0, 2.0], requires_grad=True)
x.register_post_accumulate_grad_hook(lambda t: t.grad * 2)
(x * x).sum().backward()


# %% a post-accumulate-grad hook used as an optimizer step
x = torch.tensor([1.0, 2.0], requires_grad=True)


def sgd_step(param):
    with torch.no_grad():
        param -= 0.1 * param.grad
    param.grad = None


x.register_post_accumulate_grad_hook(sgd_step)
(x * x).sum().backward()
print(x, x.grad)


# %% a post-accumulate-grad hook on a non-leaf
x = torch.tensor([1.0, 2.0], requires_grad=True)
(x * 2).register_post_accumulate_grad_hook(lambda t: None)


# %% a hook that changes the gradient's size
def make_it_longer(grad):
    return torch.cat([grad, grad])


x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 2
h.register_hook(make_it_longer)
h.sum().backward()


# %% a leaf hook that changes the gradient's size
x = torch.tensor([1.0, 2.0], requires_grad=True)
x.register_hook(lambda g: g.sum())
(x * 2).sum().backward()
print(x.grad)


# %% a leaf hook returning a size-1 tensor
x = torch.tensor([1.0, 2.0], requires_grad=True)
x.register_hook(lambda g: torch.tensor([5.0]))
(x * 2).sum().backward()
print(x.grad)


# %% a hook that changes the dtype
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 2
h.register_hook(lambda g: g.double())
h.sum().backward()
print(x.grad, x.grad.dtype)


# %% a leaf hook that changes the dtype
x = torch.tensor([1.0, 2.0], requires_grad=True)
x.register_hook(lambda g: g.double())
(x * 2).sum().backward()
print(x.grad, x.grad.dtype)


# %% a hook that returns something that is not a tensor
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 2
h.register_hook(lambda g: 3.0)
h.sum().backward()


# %% a node post hook that returns the wrong number of gradients
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0, 4.0], requires_grad=True)
z = x * y
z.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0],))
z.sum().backward()


# %% a node post hook that returns a wrong-shaped gradient
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0, 4.0], requires_grad=True)
z = x * y
z.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (torch.ones(3), grad_inputs[1]))
z.sum().backward()


# %% a node post hook that replaces the gradients
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0, 4.0], requires_grad=True)
z = x * y
z.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0] * 0, grad_inputs[1]))
z.sum().backward()
print(x.grad, y.grad)


# %% a node prehook that returns a wrong-shaped gradient
x = torch.tensor([1.0, 2.0], requires_grad=True)
z = x * 2
z.grad_fn.register_prehook(lambda grad_outputs: (torch.ones(3),))
z.sum().backward()


# %% a node prehook that replaces the gradient
x = torch.tensor([1.0, 2.0], requires_grad=True)
z = x * 2
z.grad_fn.register_prehook(lambda grad_outputs: (grad_outputs[0] * 10,))
z.sum().backward()
print(x.grad)


# %% hooks with autograd.grad
x = torch.tensor([1.0, 2.0], requires_grad=True)
seen = []
x.register_hook(lambda g: seen.append(g.tolist()))
x.register_post_accumulate_grad_hook(lambda t: seen.append("post accumulate"))
h = x * 3
h.register_hook(lambda g: g * 2)
(gx,) = torch.autograd.grad(h.sum(), x)
print(gx, seen, x.grad)


# %% a hook on a tensor that does not require grad
x = torch.tensor([1.0, 2.0])
x.register_hook(lambda g: g)


# %% hooks on a shared leaf used twice
x = torch.tensor([1.0, 2.0], requires_grad=True)
seen = []
x.register_hook(lambda g: seen.append(g.tolist()))
(x * 2 + x * 3).sum().backward()
print(seen, x.grad)


# %% a hook called on each backward
x = torch.tensor(2.0, requires_grad=True)
count = []
x.register_hook(lambda g: count.append(1))
for _ in range(3):
    (x * x).backward()
print(len(count), x.grad)


# %% a callable object as a hook that changes the size
class Summing:
    def __call__(self, grad):
        return grad.sum()


x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 2
h.register_hook(Summing())
h.sum().backward()


# %% a node hook that returns a list
x = torch.tensor([1.0, 2.0], requires_grad=True)
z = x * 2
z.grad_fn.register_hook(lambda grad_inputs, grad_outputs: list(grad_inputs))
z.sum().backward()


# %% a node prehook that returns a tensor instead of a tuple
x = torch.tensor([1.0, 2.0], requires_grad=True)
z = x * 2
z.grad_fn.register_prehook(lambda grad_outputs: grad_outputs[0])
z.sum().backward()


# %% a node hook that fills in a gradient for an input that needs none
x = torch.tensor([1.0, 2.0], requires_grad=True)
z = x * torch.tensor([3.0, 4.0])
z.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0], torch.ones(2)))
z.sum().backward()
