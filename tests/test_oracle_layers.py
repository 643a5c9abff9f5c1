"""Oracles for the layers: positions, norms, feed-forward blocks, against PyTorch and
Hugging Face `transformers` (versions in requirements-oracle.txt), float64 inputs.

Tolerance 1e-12 absolute wherever the reference computes in float64 (values of order
one; measured gaps are near 1e-15). Two references compute in float32 on purpose,
whatever the input dtype, and get a float32 tolerance, stated where used:
DistilBERT's sinusoidal table (written through torch.FloatTensor) and Llama's RMSNorm
and rotary angles (cast to float32 inside). The book has no GELU: no page computes
one (48.8 names it in prose only), so there is nothing to compare.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from oracle_helpers import agree, gap, page

torch = pytest.importorskip("torch", reason="oracle tests: requirements-oracle.txt")
pytest.importorskip("transformers", reason="oracle tests: requirements-oracle.txt")
F = torch.nn.functional

TOL = 1e-12
FLOAT32 = (
    2.0**-24
)  # one float32 ulp just below 1: a value in [-1, 1] rounded to float32


def _t(a):
    return torch.from_numpy(np.ascontiguousarray(a, dtype=np.float64))


def _llama(**kw):
    from transformers import LlamaConfig

    return LlamaConfig(**kw)


def _half_split(d):
    """Columns (0, 2, 4, ..., 1, 3, 5, ...): the book's interleaved pairs (2j, 2j+1)
    become Hugging Face's halves (j, j + d/2)."""
    return np.concatenate([np.arange(0, d, 2), np.arange(1, d, 2)])


# -- positions ------------------------------------------------------------------------
def test_sinusoidal_tables_match_distilbert():
    """Part 9 (`book.taught.sinusoidal`), 48.7 (`sinusoidal`) and lesson 21
    (`positional`, lists): sin in column 2i, cos in column 2i+1, frequency
    10000**(-2i/d). Reference: transformers' DistilBERT `create_sinusoidal_embeddings`,
    the same interleaved layout. It stores float32 (torch.FloatTensor), so the
    tolerance is float32 rounding, 2**-24; in float64 the three book versions agree
    with each other to 1e-12."""
    from transformers.models.distilbert.modeling_distilbert import (
        create_sinusoidal_embeddings,
    )

    from book.taught import sinusoidal

    n, d = 64, 32
    ref = torch.empty(n, d, dtype=torch.float64)
    create_sinusoidal_embeddings(n, d, ref)
    ref = ref.numpy()
    p9 = sinusoidal(n, d)
    p48 = page("48-07-position").sinusoidal(np.arange(n), d)
    p21 = [page("21-block").positional(pos, d) for pos in range(n)]
    agree("part 9 sinusoidal vs DistilBERT (float32 table)", gap(p9, ref), FLOAT32)
    agree("48.7 sinusoidal vs DistilBERT (float32 table)", gap(p48, ref), FLOAT32)
    agree("lesson 21 positional vs DistilBERT (float32 table)", gap(p21, ref), FLOAT32)
    agree("48.7 vs part 9, float64", gap(p48, p9), TOL)
    agree("lesson 21 vs part 9, float64", gap(p21, p9), TOL)


def _hf_cos_sin(positions, d, base, float64):
    """cos and sin the way LlamaRotaryEmbedding lays them out, [n, d]: each angle
    twice, cat(freqs, freqs). float64=False runs the module itself (float32 angles)."""
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    pos = torch.as_tensor(np.asarray(positions))[None]
    if not float64:
        cfg = _llama(hidden_size=d, num_attention_heads=1, head_dim=d, rope_theta=base)
        cos, sin = LlamaRotaryEmbedding(cfg)(torch.zeros(1, dtype=torch.float64), pos)
        return cos[0], sin[0]
    inv = 1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.float64) / d))
    freqs = pos[0, :, None].double() * inv[None]
    emb = torch.cat([freqs, freqs], dim=-1)
    return emb.cos(), emb.sin()


@pytest.mark.parametrize("base", [10_000.0, 500_000.0])
def test_rope_matches_llama_after_the_half_split_permutation(base):
    """48.7 (`rope`, rows [n, d_head] at given positions) and 48.9 (`rope`, [B, heads,
    n, d_head] at positions 0..n-1). The book turns interleaved pairs (2j, 2j+1), as
    the RoFormer paper and Meta's Llama code do; transformers'
    `apply_rotary_pos_emb` + `rotate_half` turns (j, j + d/2). The two are the same
    map under the column permutation P = (0, 2, ..., 1, 3, ...): hf(x[:, P]) =
    book(x)[:, P]. With float64 cos/sin built the Llama way, 1e-12; with
    `LlamaRotaryEmbedding` itself, which builds its angles in float32 on purpose, a
    bound: a pair turned by an angle off by delta moves by at most delta times its
    length, and a float32 angle below 64 radians is off by at most about 64 * 2**-23
    (the frequency and the product each rounded once; cos and sin add 2**-24 each),
    so the tolerance is 64 * 2**-22 times the longest pair."""
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    rng = np.random.default_rng(11)
    d, n = 16, 40
    x = rng.standard_normal((n, d))
    positions = rng.permutation(64)[:n]
    P = _half_split(d)
    book = page("48-07-position").rope(x, positions, base)
    longest = np.hypot(x[:, 0::2], x[:, 1::2]).max()
    for float64, tol in ((True, TOL), (False, 64 * 2.0**-22 * longest)):
        cos, sin = _hf_cos_sin(positions, d, base, float64)
        xt = _t(x[:, P])[None, None]  # [batch, heads, n, d]
        ref, _ = apply_rotary_pos_emb(xt, xt, cos[None], sin[None])
        ref = ref[0, 0].numpy()
        agree(
            f"48.7 rope base {base:g}, float64 angles={float64}",
            gap(book[:, P], ref),
            tol,
        )
    # without the permutation the conventions differ by order one
    assert gap(book, ref) > 0.1

    X = rng.standard_normal((2, 3, n, d))
    book9 = page("48-09-whole-model").rope(X, base)
    cos, sin = _hf_cos_sin(np.arange(n), d, base, True)
    ref9, _ = apply_rotary_pos_emb(_t(X[..., P]), _t(X[..., P]), cos[None], sin[None])
    agree(f"48.9 rope base {base:g} vs Llama", gap(book9[..., P], ref9.numpy()), TOL)


def test_llama_3_1_rope_scaling_classes_match_transformers():
    """48.7 (`wavelengths(500_000)` and the page's cut-offs: wavelengths below
    8192 / 4 = 2,048 kept, above 8192 / 1 interpolated by 8, the rest blended; it
    prints 29 kept, 29 interpolated, 6 blended) against transformers' "llama3" rope
    initialiser (`ROPE_INIT_FUNCTIONS["llama3"]`) with Llama 3.1's released rope
    parameters, head 128: the same pairs keep their frequency exactly, the same are
    divided by 8 exactly, and the other 6 fall strictly between."""
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    rope = dict(rope_type="llama3", rope_theta=500_000.0, factor=8.0)
    rope.update(low_freq_factor=1.0, high_freq_factor=4.0)
    rope.update(original_max_position_embeddings=8192)
    cfg = _llama(
        hidden_size=4096,
        num_attention_heads=32,
        head_dim=128,
        rope_parameters=rope,
        max_position_embeddings=131_072,
    )
    scaled, _ = ROPE_INIT_FUNCTIONS["llama3"](cfg, None)
    plain, _ = LlamaRotaryEmbedding.compute_default_rope_parameters(cfg)
    ratio = (scaled / plain).numpy()
    lam = page("48-07-position").wavelengths(500_000)
    keep, stretch = lam < 8192 // 4, lam > 8192 // 1
    assert (keep.sum(), stretch.sum()) == (29, 29)
    assert (ratio == 1)[keep].all() and (ratio[~keep] < 1).all()
    assert (ratio == 1 / 8)[stretch].all() and (ratio[~stretch] > 1 / 8).all()


# -- norms ----------------------------------------------------------------------------
def test_layer_norms_match_torch_layer_norm():
    """48.8 (`layer_norm`, no scale or shift, eps under the square root, biased
    variance) and lesson 21 (`layer_norm` on lists, with gamma and beta, eps=1e-5)
    against `torch.nn.LayerNorm` with the same eps, weights copied in: 1e-12."""
    rng = np.random.default_rng(12)
    x = rng.standard_normal((6, 10)) * 3 + 1
    for eps in (0.0, 1e-5):
        mine, _ = page("48-08-ffn-residual-norm").layer_norm(x, eps=eps)
        ref = F.layer_norm(_t(x), (10,), eps=eps).numpy()
        agree(f"48.8 layer_norm eps={eps:g} vs F.layer_norm", gap(mine, ref), TOL)

    gamma, beta = rng.standard_normal(10), rng.standard_normal(10)
    ln = torch.nn.LayerNorm(10, eps=1e-5, dtype=torch.float64)
    with torch.no_grad():
        ln.weight.copy_(_t(gamma))
        ln.bias.copy_(_t(beta))
        ref = ln(_t(x)).numpy()
    mine = [
        page("21-block").layer_norm(r, gamma.tolist(), beta.tolist())
        for r in x.tolist()
    ]
    agree("lesson 21 layer_norm vs nn.LayerNorm", gap(mine, ref), TOL)


def test_part6_norms_put_eps_on_the_deviation():
    """Part 6 (06-normalisation, `normalise`): (z - mean) / (std + eps), eps added to
    the standard deviation as its source does, not under the square root as
    `torch.nn.functional.layer_norm` and `batch_norm` do. The two agree at eps = 0
    (1e-300 for batch_norm, which refuses 0), and at eps > 0 after the conversion std / (std + eps); they differ by
    about eps / std without it."""
    ns = page("06-normalisation", ("EPS",))
    rng = np.random.default_rng(13)
    z = rng.standard_normal((32, 12)) * 2
    eps = 1e-5
    ln0 = F.layer_norm(_t(z), (12,), eps=0.0).numpy()
    # batch_norm refuses eps=0 in training; 1e-300 + var rounds to var exactly
    bn0 = F.batch_norm(_t(z), None, None, training=True, eps=1e-300).numpy()
    agree(
        "part 6 layer, eps=0 vs F.layer_norm",
        gap(ns.normalise(z, "layer", 0.0), ln0),
        TOL,
    )
    agree(
        "part 6 batch, eps=0 vs F.batch_norm",
        gap(ns.normalise(z, "batch", 0.0), bn0),
        TOL,
    )
    sd_l, sd_b = z.std(1, keepdims=True), z.std(0)
    agree(
        "part 6 layer, eps on std, converted",
        gap(ns.normalise(z, "layer", eps), ln0 * sd_l / (sd_l + eps)),
        TOL,
    )
    agree(
        "part 6 batch, eps on std, converted",
        gap(ns.normalise(z, "batch", eps), bn0 * sd_b / (sd_b + eps)),
        TOL,
    )
    assert (
        gap(ns.normalise(z, "layer", eps), F.layer_norm(_t(z), (12,), eps=eps).numpy())
        > 1e-7
    )


def test_rms_norm_matches_torch_and_llama():
    """48.9 (48-09-whole-model, `rms_norm`, eps=1e-5 under the square root, as Llama
    3.1's config `rms_norm_eps`) against `torch.nn.RMSNorm(eps=1e-5)` in float64
    (1e-12) and transformers' `LlamaRMSNorm`, which normalises in float32 whatever the
    input dtype: for it, 8 float32 half-ulps of the largest output, 8 * 2**-24 *
    max |out| (the cast, the mean of squares, rsqrt and the product each round)."""
    from transformers.models.llama.modeling_llama import LlamaRMSNorm

    rng = np.random.default_rng(14)
    x = rng.standard_normal((2, 5, 24))
    w = 1 + 0.1 * rng.standard_normal(24)
    mine = page("48-09-whole-model").rms_norm(x, w, eps=1e-5)
    ref = torch.nn.RMSNorm(24, eps=1e-5, dtype=torch.float64)
    llama = LlamaRMSNorm(24, eps=1e-5).double()
    with torch.no_grad():
        ref.weight.copy_(_t(w))
        llama.weight.copy_(_t(w))
        agree("48.9 rms_norm vs nn.RMSNorm", gap(mine, ref(_t(x)).numpy()), TOL)
        agree(
            "48.9 rms_norm vs LlamaRMSNorm (float32 inside)",
            gap(mine, llama(_t(x)).numpy()),
            8 * 2.0**-24 * np.abs(mine).max(),
        )


# -- feed-forward blocks --------------------------------------------------------------
def test_swiglu_matches_llama_mlp():
    """48.8 (`swiglu_ffn(X, W_gate, W_up, W_down)`, weights [in, out], SiLU written as
    g / (1 + exp(-g))) against transformers' `LlamaMLP` (hidden_act "silu", no bias),
    whose nn.Linear weights are [out, in]: the transposes are copied in. Also the
    SiLU alone against `torch.nn.functional.silu`. 1e-12."""
    from transformers.models.llama.modeling_llama import LlamaMLP

    rng = np.random.default_rng(15)
    d, ff = 16, 56
    Wg, Wu = rng.standard_normal((2, d, ff)) / np.sqrt(d)
    Wd = rng.standard_normal((ff, d)) / np.sqrt(ff)
    X = rng.standard_normal((3, 6, d))
    mine = page("48-08-ffn-residual-norm").swiglu_ffn(X, Wg, Wu, Wd)
    mlp = LlamaMLP(
        _llama(
            hidden_size=d,
            intermediate_size=ff,
            num_attention_heads=4,
            hidden_act="silu",
        )
    ).double()
    with torch.no_grad():
        mlp.gate_proj.weight.copy_(_t(Wg.T))
        mlp.up_proj.weight.copy_(_t(Wu.T))
        mlp.down_proj.weight.copy_(_t(Wd.T))
        agree("48.8 swiglu_ffn vs LlamaMLP", gap(mine, mlp(_t(X)).numpy()), TOL)
    g = np.linspace(-30, 30, 601)
    agree("48.8 SiLU vs F.silu", gap(g / (1 + np.exp(-g)), F.silu(_t(g)).numpy()), TOL)


def test_relu_feed_forwards_match_torch_linear_stack():
    """Part 11 (`ffn`, relu(X W1 + b1) W2 + b2, weights [in, out], the page's own
    globals) and lesson 21 (`feed_forward` on lists) against nn.Linear -> ReLU ->
    nn.Linear with the transposed weights and the biases copied in. 1e-12."""
    rng = np.random.default_rng(16)
    D, M = 12, 48
    W1, b1 = (
        rng.uniform(-1, 1, (D, M)) / math.sqrt(D),
        rng.uniform(-1, 1, M) / math.sqrt(D),
    )
    W2, b2 = (
        rng.uniform(-1, 1, (M, D)) / math.sqrt(M),
        rng.uniform(-1, 1, D) / math.sqrt(M),
    )
    X = rng.standard_normal((9, D))
    net = torch.nn.Sequential(
        torch.nn.Linear(D, M), torch.nn.ReLU(), torch.nn.Linear(M, D)
    ).double()
    with torch.no_grad():
        for layer, (W, b) in zip(net[::2], ((W1, b1), (W2, b2))):
            layer.weight.copy_(_t(W.T))
            layer.bias.copy_(_t(b))
        ref = net(_t(X)).numpy()
    p11 = page("11-feed-forward")
    p11.ffn.__globals__.update(D=D, W1=W1, b1=b1, W2=W2, b2=b2)
    agree("part 11 ffn vs nn.Linear stack", gap(p11.ffn(X), ref), TOL)
    rows = page("21-block").feed_forward(
        X.tolist(), W1.tolist(), b1.tolist(), W2.tolist(), b2.tolist()
    )
    agree("lesson 21 feed_forward vs nn.Linear stack", gap(rows, ref), TOL)
