# Assignment 2 with BroadcastMul's backward returning broadcast-shaped gradients (no sum_to_shape).
# minigrad's engine would sum them down by itself; the tests must still say which node, which
# input and which shapes.

# %% broadcast_mul
class BroadcastMul(minigrad.autograd.Function):
    """y = a * b, where a and b broadcast together."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad * b, grad * a
