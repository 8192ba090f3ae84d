# Assignment 2 with BroadcastMul's backward multiplying each input's gradient by that input itself
# instead of by the other factor.

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
        return sum_to_shape(grad * a, a.shape), sum_to_shape(grad * b, b.shape)
