"""book.autograd: every operation's gradient against central
differences, and the edge cases."""

from __future__ import annotations

import numpy as np
import pytest

from book.autograd import Var, gradcheck, layer_norm, linear, mse, relu, softmax


def _rand(rng, *shape, name=None):
    return Var(rng.standard_normal(shape), name=name)


def test_linear_layer_with_broadcast_bias():
    rng = np.random.default_rng(0)
    x, W, b = _rand(rng, 6, 4), _rand(rng, 3, 4), _rand(rng, 3)
    t = rng.standard_normal((6, 3))
    err = gradcheck(lambda: mse(x @ W.swapaxes(0, 1) + b, t), [x, W, b], entries=8)
    assert err < 1e-7


def test_linear_is_matmul_plus_bias():
    rng = np.random.default_rng(4)
    x, W, b = _rand(rng, 6, 4), _rand(rng, 3, 4), _rand(rng, 3)
    t = rng.standard_normal((6, 3))
    assert np.allclose(
        linear(x, W, b).value, (x @ W.swapaxes(0, 1) + b).value, rtol=0, atol=1e-15
    )
    assert gradcheck(lambda: mse(linear(x, W, b), t), [x, W, b], entries=8) < 1e-7
    # a bias with more leading axes than x @ W^T still broadcasts
    b3 = _rand(rng, 2, 1, 3)
    assert linear(x, W, b3).shape == (2, 6, 3)
    assert (
        gradcheck(
            lambda: mse(linear(x, W, b3), np.zeros((2, 6, 3))), [x, W, b3], entries=6
        )
        < 1e-7
    )


def test_linear_with_a_seed_axis():
    """Weights (seeds, out, in) and biases (seeds, 1, out): one product per seed."""
    rng = np.random.default_rng(5)
    x, W, b = _rand(rng, 3, 6, 4), _rand(rng, 3, 5, 4), _rand(rng, 3, 1, 5)
    t = rng.standard_normal((3, 6, 5))
    y = linear(x, W, b).value
    for s in range(3):
        assert np.allclose(y[s], x.value[s] @ W.value[s].T + b.value[s, 0], atol=1e-14)
    assert gradcheck(lambda: mse(linear(x, W, b), t), [x, W, b], entries=10) < 1e-7
    with pytest.raises(ValueError, match="same width"):
        linear(x, Var(np.ones((3, 5, 7))), b)


def _small_block(x, p):
    """A residual block with attention over (2, 3) rows and a norm; any
    leading axes ride along."""
    *lead, rows, d = x.shape
    qkv = linear(x, p["W"], p["b"]).reshape(*lead, 2, rows // 2, 3, d)
    q, k, v = (qkv[..., i, :] for i in range(3))
    h = softmax(q @ k.swapaxes(-1, -2)) @ v
    return layer_norm(x + relu(h.reshape(*lead, rows, d)), p["g"], p["beta"])


def test_seed_axis_gives_each_seed_its_own_gradient():
    """Stacking seeds on a leading axis, and summing each seed's own loss, gives every
    seed the gradient it gets alone: the batched form the wiring chapter uses."""
    rng = np.random.default_rng(6)
    seeds, rows, d = 3, 6, 4
    raw = [
        {
            "W": rng.standard_normal((3 * d, d)),
            "b": rng.standard_normal(3 * d),
            "g": rng.standard_normal(d),
            "beta": rng.standard_normal(d),
        }
        for _ in range(seeds)
    ]
    xs, ts = (
        rng.standard_normal((seeds, rows, d)),
        rng.standard_normal((seeds, rows, d)),
    )
    batched = {
        k: Var(
            np.stack([r[k] for r in raw])[:, None]
            if raw[0][k].ndim == 1
            else np.stack([r[k] for r in raw])
        )
        for k in raw[0]
    }
    out = _small_block(_small_block(Var(xs), batched), batched)
    (mse(out, ts) * seeds).backward()
    for s in range(seeds):
        alone = {k: Var(v) for k, v in raw[s].items()}
        (mse(_small_block(_small_block(Var(xs[s]), alone), alone), ts[s])).backward()
        for k in raw[s]:
            got = batched[k].grad[s].reshape(alone[k].shape)
            assert np.allclose(got, alone[k].grad, rtol=1e-12, atol=1e-15), k
    assert (
        gradcheck(
            lambda: mse(_small_block(Var(xs), batched), ts) * seeds,
            list(batched.values()),
            entries=6,
        )
        < 1e-7
    )


def test_batched_matmul_softmax_reshape_index():
    rng = np.random.default_rng(1)
    qkv = _rand(rng, 2, 5, 3, 2, 4)
    t = rng.standard_normal((2, 2, 5, 4))

    def f():
        q, k, v = (qkv[:, :, i].swapaxes(1, 2) for i in range(3))
        w = softmax((q @ k.swapaxes(-1, -2)) * 0.5)
        return mse((w @ v).reshape(2, 2, 5, 4), t)

    assert gradcheck(f, [qkv], entries=20) < 1e-7


def test_layer_norm_relu_and_subtraction():
    rng = np.random.default_rng(2)
    x, g, b = _rand(rng, 4, 7), _rand(rng, 7), _rand(rng, 7)
    t = rng.standard_normal((4, 7))
    err = gradcheck(
        lambda: mse(relu(layer_norm(x, g, b)) - 0.5 * x, t), [x, g, b], entries=10
    )
    assert err < 1e-7


def test_layer_norm_output_is_normalised():
    rng = np.random.default_rng(3)
    y = layer_norm(
        Var(3 + 5 * rng.standard_normal((10, 32))), Var(np.ones(32)), Var(np.zeros(32))
    ).value
    assert np.allclose(y.mean(-1), 0, atol=1e-12)
    assert np.allclose(y.var(-1), 1, atol=1e-3)  # eps = 1e-5 shrinks it a little


def test_a_value_used_twice_gets_both_gradients():
    x = Var(np.array([[2.0, -1.0]]))
    W = Var(np.array([[3.0], [4.0]]))
    y = x + x @ W @ W.swapaxes(0, 1)  # a residual: x reaches y along two paths
    loss = mse(y, np.zeros((1, 2)))
    loss.backward()
    # y = x (I + W W^T); d loss/dx = (2/2) y (I + W W^T)
    M = np.eye(2) + W.value @ W.value.T
    assert np.allclose(x.grad, (x.value @ M) @ M.T)


def test_fancy_index_that_repeats_adds_up():
    v = Var(np.arange(4.0))
    s = v[np.array([1, 1, 3])]
    mse(s, np.zeros(3)).backward()
    assert np.allclose(v.grad, [0, 2 * 2 / 3 * 1, 0, 2 * 3 / 3])


def test_deep_chain_needs_no_recursion():
    x = Var(np.ones((1, 1)))
    y = x
    for _ in range(5000):
        y = y * 1.0
    mse(y, np.zeros((1, 1))).backward()
    assert x.grad[0, 0] == pytest.approx(2.0)


def test_backward_twice_from_different_ends():
    x = Var(np.array([1.0, 2.0]))
    a = x * 3.0
    b = a * 2.0
    mse(b, np.zeros(2)).backward()
    first = x.grad.copy()
    mse(a, np.zeros(2)).backward()  # grads are reset, not accumulated across calls
    assert np.allclose(first, 36 * x.value)
    assert np.allclose(x.grad, 9 * x.value)


def test_errors_name_the_bad_value():
    with pytest.raises(ValueError, match=r"\(2, 3\)"):
        Var(np.ones((2, 3))).backward()
    with pytest.raises(ValueError, match="inner dimensions"):
        Var(np.ones((2, 3))) @ Var(np.ones((2, 3)))
    with pytest.raises(ValueError, match="target shape"):
        mse(Var(np.ones(3)), np.ones(4))
    with pytest.raises(ValueError, match="eps"):
        layer_norm(Var(np.ones((2, 3))), Var(np.ones(3)), Var(np.zeros(3)), eps=0)
    with pytest.raises(TypeError, match="str"):
        Var(np.ones(2)) + "a"
    with pytest.raises(ValueError, match="entries"):
        gradcheck(
            lambda: mse(Var(np.ones(1)), np.ones(1)), [Var(np.ones(1))], entries=0
        )


def test_slices_and_shared_gradients_add_up_in_place():
    """backward adds a slice's gradient into an array of the input's own, and adds in
    place only into arrays it made: a value used whole, sliced three ways and added to
    itself (add hands one array to both sides) still gets central differences'
    gradient, and a scale by a plain number has no gradient of its own."""
    rng = np.random.default_rng(7)
    x = _rand(rng, 5, 6, name="x")
    t = rng.standard_normal((5, 2))

    def f():
        a, b = x * 0.5, x - 1.0
        s = a + b  # add hands one gradient array to both a and b
        parts = s[:, 0:2] + s[:, 2:4] * 3 + s[:, 4:6]  # s sliced three ways
        return mse(parts + a[:, 1:3] + b[:, 3:5] * a[:, 0:2], t)

    assert gradcheck(f, [x], entries=12) < 1e-7
    y = x * 2.0
    assert y._parents == (x,)
