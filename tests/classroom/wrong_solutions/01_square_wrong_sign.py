# Assignment 1 with the sign of Square's backward flipped: -2x instead of 2x.
# Graded, the Square backward test and the combined test must fail naming SquareBackward.

# %% square
class Square(minigrad.autograd.Function):
    """y = x ** 2, elementwise."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return -grad * 2 * x
