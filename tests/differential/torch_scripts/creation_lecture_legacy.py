# Cells in the style of an older deep-learning course's notebooks: Variable, torch.Tensor and the
# typed constructors, .type() strings, new_* helpers, dtype bookkeeping and the default dtype.
import torch
from torch.autograd import Variable

# %% Variable wraps a tensor (it is a plain tensor nowadays)
x = Variable(torch.ones(2, 2), requires_grad=True)
print(x)
print(type(x).__name__, isinstance(x, torch.Tensor), x.is_leaf)
y = x + 2
z = (y * y * 3).mean()
z.backward()
print(x.grad)
v = Variable(torch.Tensor([1, 2, 3]))
print(v, v.requires_grad)

# %% torch.Tensor as a constructor
a = torch.Tensor([[1, 2], [3, 4]])
print(a, a.dtype)
print(torch.Tensor(2, 3).shape, torch.Tensor(2, 3).dtype)
print(torch.Tensor(), torch.Tensor((2, 3)), torch.Tensor(torch.Size([1, 2])).shape)
print(isinstance(a, torch.Tensor), isinstance(torch.tensor(1), torch.Tensor))

# %% typed constructors and isinstance
f = torch.FloatTensor([1, 2, 3])
d = torch.DoubleTensor([[1]])
l = torch.LongTensor([1.7, 2.2])
i = torch.IntTensor([5])
b = torch.BoolTensor([1, 0])
for t in (f, d, l, i, b):
    print(t, t.dtype, t.type())
print(isinstance(f, torch.FloatTensor), isinstance(l, torch.FloatTensor), isinstance(l, torch.LongTensor))
print(torch.FloatTensor(3).shape, torch.LongTensor(2, 2).dtype)

# %% .type() converts too
g = torch.tensor([1.5, 2.5])
print(g.type(), g.type(torch.int64), g.type('torch.DoubleTensor'))
print(g.type(torch.DoubleTensor).dtype)
print(g.element_size(), g.double().element_size(), torch.tensor([1]).element_size())

# %% new_* make tensors like another
base = torch.ones(2, dtype=torch.float64)
print(base.new_tensor([1, 2]))
print(base.new_zeros(2, 3))
print(base.new_ones((1, 2)), base.new_full((2,), 3), base.new_empty(4).shape)
print(base.new_ones(2, dtype=torch.int64))
print(base.new_tensor([1.0], requires_grad=True))

# %% dtype objects
print(torch.float32, torch.float, torch.double, torch.long, torch.int, torch.bool, torch.int64)
print(torch.float == torch.float32, torch.int == torch.int32, torch.long is torch.int64)
print(torch.float32.is_floating_point, torch.int64.is_floating_point, torch.float64.itemsize)
print(str(torch.float16), repr(torch.uint8))
print(torch.is_floating_point(torch.tensor([1.0])), torch.tensor([1]).is_floating_point())
print({torch.float32: "f32"}[torch.tensor([1.0]).dtype])

# %% the default dtype
print(torch.get_default_dtype())
torch.set_default_dtype(torch.float64)
print(torch.tensor([1.5]).dtype, torch.zeros(2).dtype, torch.arange(0.0, 2.0).dtype)
print(torch.tensor([1, 2]) / 2)
torch.set_default_dtype(torch.float32)
print(torch.tensor([1.5]).dtype)

# %% to(): dtype, device, another tensor
h = torch.tensor([1, 2])
print(h.to(torch.float32), h.to("cpu") is h, h.to(torch.device("cpu"), torch.float64))
print(h.to(torch.ones(1)), h.to(dtype=torch.float16), h.cpu() is h)
print(h.to(torch.int64, copy=True) is h, h.to(torch.float64, non_blocking=True))
w = torch.ones(2, requires_grad=True)
u = w.to(torch.float64)
print(u.grad_fn.name(), u.requires_grad)
u.sum().backward()
print(w.grad, w.grad.dtype)

# %% assigning .grad by hand
p = torch.zeros(3, requires_grad=True)
p.grad = torch.ones(3)
print(p.grad)
p.grad = None
print(p.grad)

# %% x.new(...) and the limits of each dtype
base = torch.ones(2, 3)
print(base.new(2, 2).shape, base.new([1, 2]), base.long().new([1.5]))
print(torch.finfo(torch.float32).eps, torch.finfo(torch.float64).eps, torch.finfo().max)
print(torch.finfo(torch.float16), torch.finfo(torch.float32).tiny)
print(torch.iinfo(torch.int32).max, torch.iinfo(torch.uint8), torch.iinfo(torch.int64).min)

# %% finfo of an integer type
torch.finfo(torch.int32)

# %% iinfo of bool
torch.iinfo(torch.bool)
