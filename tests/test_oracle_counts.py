"""Oracles for the parameter counts: every named model the book counts, against the
reference library's model built from its configuration with no weights
(`torch.device("meta")`: shapes only, no memory), summed as `p.numel()` over
`model.parameters()` (a tied matrix is one parameter, counted once). The
configurations come from the book's own values (book/published.py and the pages'
tables); nothing is downloaded. Counts are integers: they must be equal.

References: transformers' `LlamaForCausalLM` (Llama 3.1), `GPT2LMHeadModel` (GPT-2,
and GPT-3, which has GPT-2's layout at its own sizes), `BertModel` (BERT, MiniLM),
`MixtralForCausalLM` (Mixtral 8x7B), and `torch.nn.Transformer` for the 2017 models.
"""

from __future__ import annotations

import pytest
from oracle_helpers import page

torch = pytest.importorskip("torch", reason="oracle tests: requirements-oracle.txt")
transformers = pytest.importorskip(
    "transformers", reason="oracle tests: requirements-oracle.txt"
)

from book.published import LLAMA_3_1, fact  # noqa: E402


def _numel(build):
    with torch.device("meta"):
        model = build()
    return sum(p.numel() for p in model.parameters()), model


def _llama(c):
    return transformers.LlamaConfig(
        vocab_size=c["vocab"],
        hidden_size=c["d"],
        intermediate_size=c["d_ff"],
        num_hidden_layers=c["layers"],
        num_attention_heads=c["heads"],
        num_key_value_heads=c["kv_heads"],
        head_dim=c["head_dim"],
        tie_word_embeddings=c["tied"],
    )


@pytest.mark.parametrize("size", sorted(LLAMA_3_1))
def test_llama_3_1_counts(size):
    """48.9 (`count`, `llama_count`), 48.98 (`shares`), 48.99 (`llama_weights`), 48.6
    (`attention_params`, one layer's attention) and 48.8 (`llama_layer`, one decoder
    layer) against `LlamaForCausalLM` built from book/published.py's LLAMA_3_1 on the
    meta device; one layer against its `LlamaDecoderLayer` and `LlamaAttention`."""
    c = LLAMA_3_1[size]
    ref, model = _numel(lambda: transformers.LlamaForCausalLM(_llama(c)))
    p9 = page("48-09-whole-model")
    args = (c["layers"], c["d"], c["heads"], c["kv_heads"], c["head_dim"])
    assert p9.count(c) == ref
    assert p9.llama_count(*args, c["d_ff"], c["vocab"]) == ref
    assert page("48-99-summary").llama_weights(c)[2] == ref
    assert c["heads"] * c["head_dim"] == c["d"]  # shares() writes q and o as d x d
    assert page("48-98-wrong-ideas").shares(c["layers"], c["d"], c["d_ff"], 8)[2] == ref
    layer = model.model.layers[0]
    attn = sum(p.numel() for p in layer.self_attn.parameters())
    shapes = page("48-06-multi-head").attention_params(
        c["d"], c["heads"], c["kv_heads"], c["head_dim"]
    )
    assert sum(rows * cols for rows, cols in shapes.values()) == attn
    parts = page("48-08-ffn-residual-norm").llama_layer(
        c["d"], c["heads"], c["kv_heads"], c["head_dim"], c["d_ff"]
    )
    assert sum(parts.values()) == sum(p.numel() for p in layer.parameters())
    assert parts["attention"] == attn


# name, layers, d_model, heads, context, vocabulary: the register's configurations
_GPT2, _GPT3 = fact("gpt2.configs"), fact("gpt3.175b")
GPT = [
    (name, c["layers"], c["d"], c["heads"], c["context"], c["vocab"])
    for name, c in (
        ("GPT-2 small", _GPT2["small"]),
        ("GPT-2 XL", _GPT2["XL"]),
        ("GPT-3", _GPT3),
    )
]


@pytest.mark.parametrize("name, L, d, H, ctx, vocab", GPT, ids=[g[0] for g in GPT])
def test_gpt_counts(name, L, d, H, ctx, vocab):
    """48.9 (`gpt_count`: learned positions, tied embeddings, biases, two LayerNorms a
    block and a final one, d_ff = 4d) against `GPT2LMHeadModel` on the meta device.
    GPT-3's alternating sparse attention changes no weight shape."""
    config = transformers.GPT2Config(
        vocab_size=vocab, n_positions=ctx, n_embd=d, n_layer=L, n_head=H
    )
    ref, model = _numel(lambda: transformers.GPT2LMHeadModel(config))
    assert model.lm_head.weight is model.transformer.wte.weight  # tied: counted once
    assert page("48-09-whole-model").gpt_count(L, d, vocab, ctx) == ref


_BERT, _MINILM = fact("bert.configs"), fact("minilm.l6")
BERT = [
    ("BERT-base", _BERT["base"]["layers"], _BERT["base"]["d"], _BERT["base"]["heads"]),
    (
        "BERT-large",
        _BERT["large"]["layers"],
        _BERT["large"]["d"],
        _BERT["large"]["heads"],
    ),
    ("MiniLM-L6", _MINILM["layers"], _MINILM["d"], 12),  # heads change no count
]


@pytest.mark.parametrize("name, L, d, H", BERT, ids=[b[0] for b in BERT])
def test_bert_counts(name, L, d, H):
    """48.11 (`bert_params`: WordPiece vocabulary 30,522, 512 learned positions, two
    segment types, d_ff = 4d, pooler) against `BertModel(add_pooling_layer=True)`,
    and without the pooler against `add_pooling_layer=False`."""
    tables = fact("bert.vocab_positions")
    config = transformers.BertConfig(
        vocab_size=tables["vocab"],
        hidden_size=d,
        num_hidden_layers=L,
        num_attention_heads=H,
        intermediate_size=4 * d,
        max_position_embeddings=tables["positions"],
        type_vocab_size=2,
    )
    bert = page("48-11-three-architectures", ("BERT_TABLES",)).bert_params
    for pooler in (True, False):
        ref, _ = _numel(
            lambda: transformers.BertModel(config, add_pooling_layer=pooler)
        )
        assert bert(L, d, pooler=pooler) == ref


@pytest.mark.parametrize(
    "d, H, dff", [(512, 8, 2048), (1024, 16, 4096)], ids=["base", "big"]
)
def test_2017_transformer_counts(d, H, dff):
    """48.9 (`vaswani_count`) and 48.10 (`transformer_params`): the 2017 base and big
    encoder-decoder, shared 37,000-token table for the encoder input, the decoder
    input and the output projection. Reference: `torch.nn.Transformer` (6 + 6 layers,
    biases, post-norm) plus one 37,000 x d table. Convention: nn.Transformer adds a
    final LayerNorm after each stack, which the paper's post-norm model has not; their
    2 x 2d weights are subtracted, by name. One encoder layer against
    `nn.TransformerEncoderLayer` for 48.8's `classic_layer`."""
    V = 37_000
    ref, model = _numel(
        lambda: torch.nn.Transformer(d, H, 6, 6, dff, dropout=0.0, batch_first=True)
    )
    finals = sum(p.numel() for p in model.encoder.norm.parameters()) + sum(
        p.numel() for p in model.decoder.norm.parameters()
    )
    assert finals == 4 * d
    ref = ref - finals + V * d
    assert page("48-09-whole-model").vaswani_count(6, d, V, dff) == ref
    assert page("48-10-the-paper").transformer_params(6, d, dff, V) == ref
    layer = sum(p.numel() for p in model.encoder.layers[0].parameters())
    assert sum(page("48-08-ffn-residual-norm").classic_layer(d, dff).values()) == layer


def test_mixtral_8x7b_count():
    """48.14 (48-14-mixture-of-experts) counts Mixtral 8x7B in its cells, no function:
    d 4096, FFN 14,336, 32 layers, 32 heads, 8 KV heads of 128, vocabulary 32,000, 8
    experts, top-2, untied; total 46,702,792,704 and active per token 12,879,925,248
    (the numbers the page checks).
    Reference: `MixtralForCausalLM` on the meta device."""
    m = fact("mixtral.8x7b.config")
    config = transformers.MixtralConfig(
        vocab_size=m["vocab"],
        hidden_size=m["d"],
        intermediate_size=m["d_ff"],
        num_hidden_layers=m["layers"],
        num_attention_heads=m["d"] // m["head_dim"],
        num_key_value_heads=m["kv_heads"],
        head_dim=m["head_dim"],
        num_local_experts=m["experts"],
        num_experts_per_tok=m["top_k"],
        tie_word_embeddings=False,
    )
    ref, model = _numel(lambda: transformers.MixtralForCausalLM(config))
    assert ref == 46_702_792_704
    # active per token: every weight but the 6 unchosen experts of each layer
    experts = model.model.layers[0].mlp.experts  # stacked: [8, ...] per tensor
    per_expert = sum(p.numel() for p in experts.parameters()) // m["experts"]
    unchosen = m["layers"] * (m["experts"] - m["top_k"]) * per_expert
    assert ref - unchosen == 12_879_925_248


def test_part11_block_weights():
    """Part 11 (`block_weights`: attention 4d^2 and feed-forward 8d^2, weights only, no
    biases) against `nn.TransformerEncoderLayer(bias=False)`'s matrices (its 2-D
    parameters; the LayerNorm scales are 1-D)."""
    for d in (64, 512):
        _, layer = _numel(
            lambda: torch.nn.TransformerEncoderLayer(d, 8, 4 * d, bias=False)
        )
        att = sum(p.numel() for p in layer.self_attn.parameters() if p.ndim == 2)
        ffn = layer.linear1.weight.numel() + layer.linear2.weight.numel()
        assert page("11-feed-forward").block_weights(d) == (att, ffn)
