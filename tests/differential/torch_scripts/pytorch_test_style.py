# Checks in the style of PyTorch's own test suite: small graphs, gradients compared with
# torch.testing.assert_close, failures caught and printed.
import torch
from torch.testing import assert_close


def report(check):
    try:
        check()
        print(check.__name__, "passed")
    except AssertionError as error:
        print(check.__name__, "failed:", error)

# %% gradients of a product compared with the formula
def test_mul_grad():
    a = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    b = torch.tensor([0.5, 4.0, -1.0], requires_grad=True)
    (a * b).sum().backward()
    assert_close(a.grad, b.detach())
    assert_close(b.grad, a.detach())

report(test_mul_grad)

# %% a mismatch is described element by element
def test_reports_mismatch():
    assert_close(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.5, 3.0]))

def test_reports_2d_mismatch():
    assert_close(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([[1.0, 2.0], [3.0, 4.1]]))

def test_reports_scalar_mismatch():
    assert_close(torch.tensor(1.0), torch.tensor(1.5))

def test_reports_integer_mismatch():
    assert_close(torch.tensor([1, 2]), torch.tensor([1, 3]))

report(test_reports_mismatch)
report(test_reports_2d_mismatch)
report(test_reports_scalar_mismatch)
report(test_reports_integer_mismatch)

# %% shapes and dtypes are checked first
def test_shape():
    assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0, 3.0]))

def test_dtype():
    assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0], dtype=torch.float64))

report(test_shape)
report(test_dtype)
assert_close(torch.tensor([1, 2]), torch.tensor([1.0, 2.0]), check_dtype=False)
print("check_dtype=False passed")

# %% tolerances, NaNs, numbers and sequences
assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.1]), rtol=0, atol=0.2)
assert_close(torch.tensor([1.0, float("nan")]), torch.tensor([1.0, float("nan")]), equal_nan=True)
assert_close([torch.tensor(1.0), torch.tensor(2.0)], (torch.tensor(1.0), torch.tensor(2.0)))

def test_nan():
    assert_close(torch.tensor([1.0, float("nan")]), torch.tensor([1.0, float("nan")]))

def test_sequence_item():
    assert_close([torch.tensor(1.0), torch.tensor(2.0)], [torch.tensor(1.0), torch.tensor(2.5)])

def test_numbers():
    assert_close(1.0, 1.1)

def test_zero_expected():
    assert_close(torch.tensor([1.0]), torch.tensor([0.0]))

def test_custom_message():
    assert_close(torch.tensor([1.0]), torch.tensor([2.0]), msg="custom")

for check in (test_nan, test_sequence_item, test_numbers, test_zero_expected, test_custom_message):
    report(check)

# %% inputs that cannot be paired
assert_close(torch.tensor(1.0), 1.0)

# %% only one tolerance given
assert_close(torch.tensor([1.0]), torch.tensor([1.0]), atol=0.1)

# %% a second derivative checked against the formula
def test_second_derivative():
    x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
    (dx,) = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)
    (ddx,) = torch.autograd.grad(dx.sum(), x)
    assert_close(dx, 3 * x.detach() ** 2)
    assert_close(ddx, 6 * x.detach())

report(test_second_derivative)
