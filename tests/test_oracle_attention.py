"""Oracles for attention: the book's functions against PyTorch's, same inputs, float64.

Reference: `torch.nn.functional.scaled_dot_product_attention` (SDPA) and
`torch.nn.MultiheadAttention`, torch 2.13 on the CPU (requirements-oracle.txt).
Conventions: the book's masks say True = blocked; torch's boolean `attn_mask` says
True = may attend, so the book's mask goes in negated. Tolerance 1e-12 absolute on
values of order one: float64 with a different summation order (measured gaps are
below 1e-15).
"""

from __future__ import annotations

import numpy as np
import pytest
from oracle_helpers import agree, gap, page

torch = pytest.importorskip("torch", reason="oracle tests: requirements-oracle.txt")
F = torch.nn.functional

TOL = 1e-12


def _t(a):
    return torch.from_numpy(np.ascontiguousarray(a, dtype=np.float64))


def _sdpa(Q, K, V, **kw):
    return F.scaled_dot_product_attention(_t(Q), _t(K), _t(V), **kw).numpy()


def _qkv(seed, shape_q, shape_k, d_v):
    rng = np.random.default_rng(seed)
    Q = rng.standard_normal(shape_q)
    K = rng.standard_normal(shape_k)
    V = rng.standard_normal(shape_k[:-1] + (d_v,))
    return Q, K, V


def test_part8_attention_matches_sdpa():
    """Part 8 (08-attention), `book.taught.attention`: softmax(Q K^T / sqrt(d)) V for
    one head, no mask, against SDPA with its default scale 1/sqrt(d_k)."""
    from book.taught import attention

    Q, K, V = _qkv(0, (7, 16), (9, 16), 5)
    out, weights = attention(Q, K, V)
    agree("part 8 attention vs SDPA", gap(out, _sdpa(Q, K, V)), TOL)
    ref_w = torch.softmax(_t(Q) @ _t(K).T / 4.0, dim=-1).numpy()
    agree("part 8 weights vs torch.softmax", gap(weights, ref_w), TOL)


def test_48_4_attention_with_causal_and_padding_masks():
    """48.4 (48-04-scaled-dot-product) runs part 8's `attention(Q, K, V, mask)`, the
    book's one attention, imported from book.taught: batched, with no
    mask, a causal mask (against SDPA's is_causal=True and against attn_mask), and a
    causal mask combined with padding (the last keys of the second sequence blocked)."""
    ns = page("48-04-scaled-dot-product")
    B, H, n, d_k, d_v = 2, 3, 6, 8, 5
    Q, K, V = _qkv(1, (B, H, n, d_k), (B, H, n, d_k), d_v)
    from book.taught import attention

    assert ns.attention is attention  # imported, not written again
    out, _ = ns.attention(Q, K, V)
    agree("48.4 attention, no mask", gap(out, _sdpa(Q, K, V)), TOL)

    causal = np.triu(np.ones((n, n), bool), k=1)  # True = blocked, the book's way
    out, _ = ns.attention(Q, K, V, mask=causal)
    agree("48.4 causal vs is_causal", gap(out, _sdpa(Q, K, V, is_causal=True)), TOL)
    agree(
        "48.4 causal vs attn_mask",
        gap(out, _sdpa(Q, K, V, attn_mask=torch.from_numpy(~causal))),
        TOL,
    )

    pad = np.zeros((B, 1, 1, n), bool)
    pad[1, ..., 4:] = True  # sequence 2 is four tokens long, then padding
    blocked = causal | pad  # (B, 1, n, n): no row is fully blocked
    out, W = ns.attention(Q, K, V, mask=blocked)
    ref = _sdpa(Q, K, V, attn_mask=torch.from_numpy(~blocked))
    agree("48.4 causal + padding vs SDPA", gap(out, ref), TOL)
    assert (W[1, ..., 4:] == 0).all()


def test_48_5_fully_masked_rows_zero_like_sdpa_nan_like_softmax():
    """48.5 (48-05-masking): a query whose every key is blocked. The page's `softmax`
    gives NaN there, as `torch.softmax` does on a row of -inf; its guarded
    `masked_attention` gives a zero row, which is what SDPA returns (torch >= 2.5
    zeroes fully masked rows). Elsewhere the two agree to 1e-12."""
    ns = page("48-05-masking")
    n, d_k, d_v = 5, 4, 3
    Q, K, V = _qkv(2, (2, n, d_k), (2, n, d_k), d_v)
    blocked = np.broadcast_to(ns.causal_mask(n), (2, n, n)).copy()
    blocked[1, 2, :] = True  # query 2 of sequence 2 sees nothing
    out, W = ns.masked_attention(Q, K, V, blocked)
    ref = _sdpa(Q, K, V, attn_mask=torch.from_numpy(~blocked))
    agree("48.5 masked_attention vs SDPA, one row fully masked", gap(out, ref), TOL)
    assert (out[1, 2] == 0).all() and (ref[1, 2] == 0).all()

    S = np.where(blocked, -np.inf, Q @ np.swapaxes(K, -1, -2) / np.sqrt(d_k))
    mine, theirs = ns.softmax(S), torch.softmax(_t(S), dim=-1).numpy()
    assert np.isnan(mine[1, 2]).all() and np.isnan(theirs[1, 2]).all()
    agree("48.5 softmax vs torch.softmax (NaN rows equal)", gap(mine, theirs), TOL)


def test_lesson_20_list_attention_matches_sdpa():
    """Lesson 20 (20-attention), `attend` on plain lists, scaled, with and without the
    causal mask, against SDPA (is_causal=True)."""
    ns = page("20-attention")
    Q, K, V = _qkv(3, (5, 4), (5, 4), 3)
    for causal in (False, True):
        _, _, _, out = ns.attend(Q.tolist(), K.tolist(), V.tolist(), causal=causal)
        ref = _sdpa(Q, K, V, is_causal=causal)
        agree(f"lesson 20 attend causal={causal} vs SDPA", gap(out, ref), TOL)


@pytest.mark.parametrize("tile", [1, 3, 8, 13])
def test_48_13_tiled_online_softmax_matches_sdpa(tile):
    """48.13 (48-13-cost-of-attention): `attention_full` and the online-softmax
    `attention_tiled` (the FlashAttention recurrence), causal and not, against SDPA.
    Tile 13 does not divide the 40 keys: the last tile is short."""
    ns = page("48-13-cost-of-attention")
    Q, K, V = _qkv(4, (40, 16), (40, 16), 8)
    for causal in (False, True):
        ref = _sdpa(Q, K, V, is_causal=causal)
        if tile == 1:
            full = ns.attention_full(Q, K, V, causal=causal)
            agree(f"48.13 attention_full causal={causal}", gap(full, ref), TOL)
        tiled, _ = ns.attention_tiled(Q, K, V, tile, causal=causal)
        agree(f"48.13 tiled {tile} causal={causal}", gap(tiled, ref), TOL)


def test_48_6_multi_head_matches_torch_multihead_attention():
    """48.6 (48-06-multi-head), `multi_head`: square projections applied as X @ W
    (W is [in, out]), heads cut as consecutive column blocks, no biases, no mask.
    Reference: `torch.nn.MultiheadAttention(bias=False, batch_first=True)`, whose
    weights are [out, in]: in_proj_weight = [W_Q^T; W_K^T; W_V^T], out_proj = W_O^T.
    Outputs and the per-head weights (average_attn_weights=False) agree to 1e-12."""
    ns = page("48-06-multi-head")
    rng = np.random.default_rng(5)
    B, n, d, h = 2, 7, 24, 4
    X = rng.standard_normal((B, n, d))
    W_Q, W_K, W_V, W_O = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(4))
    out, A, _ = ns.multi_head(X, W_Q, W_K, W_V, W_O, h)

    mha = torch.nn.MultiheadAttention(d, h, bias=False, batch_first=True)
    mha = mha.double()
    with torch.no_grad():
        mha.in_proj_weight.copy_(_t(np.concatenate([W_Q.T, W_K.T, W_V.T])))
        mha.out_proj.weight.copy_(_t(W_O.T))
        x = _t(X)
        ref, ref_A = mha(x, x, x, need_weights=True, average_attn_weights=False)
    agree("48.6 multi_head vs nn.MultiheadAttention", gap(out, ref.numpy()), TOL)
    agree("48.6 per-head weights vs nn.MultiheadAttention", gap(A, ref_A.numpy()), TOL)


@pytest.mark.parametrize("norm_first", [True, False], ids=["pre-norm", "post-norm"])
def test_lesson_21_blocks_match_transformer_encoder_layer(norm_first):
    """Lesson 21 (21-block), `pre_norm_block` and `post_norm_block` on plain lists: one
    causal head (`causal_attention`, weights [in, out], no biases), a ReLU
    feed-forward with biases, `layer_norm` with eps 1e-5 and unit scale, zero shift.
    Reference: `nn.TransformerEncoderLayer(d, 1, d_ff, dropout=0, batch_first=True,
    norm_first=...)` run with a causal mask, the transposed weights copied in, the
    attention biases zero. The page's globals (ATT_Q ... B2) are set to this test's
    weights. 1e-12."""
    ns = page("21-block")
    rng = np.random.default_rng(6)
    d, ff, n = 6, 12, 5
    Wq, Wk, Wv, Wo = (rng.uniform(-0.5, 0.5, (d, d)) for _ in range(4))
    W1, W2 = rng.uniform(-0.5, 0.5, (d, ff)), rng.uniform(-0.5, 0.5, (ff, d))
    b1, b2 = rng.uniform(-0.5, 0.5, ff), rng.uniform(-0.5, 0.5, d)
    X = rng.standard_normal((n, d)) * 2
    ns.attn.__globals__.update(
        ATT_Q=Wq.tolist(),
        ATT_K=Wk.tolist(),
        ATT_V=Wv.tolist(),
        ATT_O=Wo.tolist(),
        W1=W1.tolist(),
        B1=b1.tolist(),
        W2=W2.tolist(),
        B2=b2.tolist(),
    )
    block = ns.pre_norm_block if norm_first else ns.post_norm_block
    mine = block(X.tolist())

    layer = torch.nn.TransformerEncoderLayer(
        d, 1, ff, dropout=0.0, batch_first=True, norm_first=norm_first
    ).double()
    with torch.no_grad():
        layer.self_attn.in_proj_weight.copy_(_t(np.concatenate([Wq.T, Wk.T, Wv.T])))
        layer.self_attn.in_proj_bias.zero_()
        layer.self_attn.out_proj.weight.copy_(_t(Wo.T))
        layer.self_attn.out_proj.bias.zero_()
        layer.linear1.weight.copy_(_t(W1.T))
        layer.linear1.bias.copy_(_t(b1))
        layer.linear2.weight.copy_(_t(W2.T))
        layer.linear2.bias.copy_(_t(b2))
        mask = torch.nn.Transformer.generate_square_subsequent_mask(
            n, dtype=torch.float64
        )
        ref = layer(_t(X)[None], src_mask=mask, is_causal=True)[0].numpy()
    name = "pre" if norm_first else "post"
    agree(
        f"lesson 21 {name}_norm_block vs nn.TransformerEncoderLayer",
        gap(mine, ref),
        TOL,
    )


def test_48_11_masks_say_true_may_read_as_torch_does():
    """48.11 (48-11-three-architectures), `attend(Xq, Xkv, Wqkv, mask)`: one head,
    X_q + softmax(X_q W_q (X_kv W_k)^T / sqrt(d)) X_kv W_v, the page's d = 8. Its mask
    says True = may read, torch's boolean `attn_mask` convention (48.4 and 48.5 use
    the opposite). Self-attention with the encoder's full mask and the decoder's
    causal one, and cross-attention from 4 decoder rows to 6 encoder rows with a
    padded source, against the same projections through SDPA plus the residual."""
    ns = page("48-11-three-architectures", ("d",))
    rng = np.random.default_rng(7)
    Wqkv = rng.standard_normal((3, ns.d, ns.d)) / np.sqrt(ns.d)
    src, out = rng.standard_normal((6, ns.d)), rng.standard_normal((4, ns.d))
    pad = np.ones((4, 6), bool)
    pad[:, 5] = False  # the last source token is padding
    cases = {
        "encoder, full": (src, src, np.ones((6, 6), bool)),
        "decoder, causal": (out, out, np.tril(np.ones((4, 4), bool))),
        "cross, padded source": (out, src, pad),
    }
    for name, (Xq, Xkv, mask) in cases.items():
        mine = ns.attend(Xq, Xkv, Wqkv, mask)
        q, k, v = Xq @ Wqkv[0], Xkv @ Wqkv[1], Xkv @ Wqkv[2]
        ref = Xq + _sdpa(q, k, v, attn_mask=torch.from_numpy(mask))
        agree(f"48.11 attend, {name}", gap(mine, ref), TOL)
