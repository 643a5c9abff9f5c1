"""Words before use (issue 29): a core term is defined where a reader first meets it.

For each term in TERMS, the first chapter in `_toc.yml` order whose teaching prose uses the
term must link it with {term} (`` {term}`token` `` or `` {term}`tokens <token>` ``), and
glossary.yml must hold the entry the link names. Teaching prose is the markdown cells of a
chapter's MyST twin without code fences, maths, inline code, link targets, roles other than
{term}, and the folded "Against the source" note. intro.md is not a chapter and is exempt.

Each term carries a regular expression for the sense the book means: "key" in attention, not
"the key cell" of the exercise boilerplate; "weight" as a learned number, not "attention
weights" (a term of its own).

PENDING lists terms whose first page belongs to a chapter not yet brought up to this rule,
with the page it waits for. A pending term is skipped; once it passes, the test fails until
its line is removed, so the list only shrinks. Run it as a script to print, for every term,
the first page that uses it, whether that page links it, and the sentence it is used in:

    python tests/test_glossary_first_use.py
"""

import re
from pathlib import Path

import jupytext
import pytest
import yaml

from workshop.config import ROOT, notebook_docs

# name: (regex of the sense the book means, the glossary entries a link may name).
# A link to any of the entries defines the term; the first one is the entry glossary.yml
# must hold.
TERMS = {
    "tensor": (r"\btensors?\b", ["tensor"]),
    "matrix": (r"\bmatri(?:x|ces)\b", ["matrix"]),
    "floating point": (
        r"\bfloating[- ]point\b|\bfloat(?:16|32|64)?s?\b",
        ["floating point"],
    ),
    "stride": (r"\bstrides?\b", ["stride"]),
    "view": (r"\bviews?\b", ["view"]),
    "broadcasting": (r"\bbroadcast(?:s|ing|ed)?\b", ["broadcasting"]),
    "softmax": (r"\bsoftmax(?:es)?\b", ["softmax"]),
    "attention": (r"\battention\b", ["attention"]),
    "head": (r"\b(?:attention )?heads?\b", ["head"]),
    "loss": (r"\bloss(?:es)?\b(?! of\b)", ["loss", "cross-entropy loss"]),
    "parameter": (r"\bparameters?\b", ["parameter"]),
    "gradient": (r"\bgradients?\b", ["gradient"]),
    "gradient descent": (r"\bgradient descent\b", ["gradient descent"]),
    "learning rate": (r"\blearning[- ]rates?\b", ["learning rate"]),
    "eigenvalue": (r"\beigenvalues?\b", ["eigenvalue"]),
    "Hessian": (r"\bHessians?\b", ["Hessian"]),
    "condition number": (r"\bcondition numbers?\b", ["condition number"]),
    "layer": (r"\blayers?\b", ["layer", "linear layer"]),
    "minibatch": (r"\bmini-?batch(?:es)?\b", ["minibatch"]),
    "initialisation": (
        r"\binitiali[sz](?:ation|ations|e|es|ed|ing)\b",
        ["initialisation", "Xavier initialisation", "Kaiming-uniform initialisation"],
    ),
    "normalisation": (
        r"\bnormali[sz](?:ation|ations|e|es|ed|ing)\b|\b(?:batch|layer|RMS)[- ]?norms?\b",
        ["normalisation", "batch normalisation", "layer normalization", "RMSNorm"],
    ),
    "weight": (r"(?<!attention )\bweights?\b", ["weight"]),
    "bias": (r"\bbias(?:es)?\b", ["bias"]),
    "neuron": (r"\bneurons?\b", ["neuron"]),
    "batch": (r"\bbatch(?:es)?\b", ["batch"]),
    "backpropagation": (r"\bback-?propagat\w*|\bbackprop\b", ["backpropagation"]),
    "chain rule": (r"\bchain rule\b", ["chain rule"]),
    "forward pass": (r"\bforward pass(?:es)?\b", ["forward pass"]),
    "sigmoid": (r"\bsigmoids?\b", ["sigmoid"]),
    "transformer": (r"\btransformers?\b", ["transformer"]),
    "Jacobian": (r"\bJacobians?\b", ["Jacobian"]),
    "residual": (r"\bresiduals?\b", ["residual connection", "residual stream"]),
    "variance": (r"\bvariances?\b", ["variance"]),
    "activation": (r"\bactivations?\b", ["activation"]),
    "ReLU": (r"\bReLUs?\b", ["ReLU"]),
    "epoch": (r"\bepochs?\b", ["epoch"]),
    "probability distribution": (
        r"\b(?:probability )?distributions?\b",
        ["probability distribution"],
    ),
    "overfitting": (r"\boverfit(?:s|ting|ted)?\b", ["overfitting"]),
    "token": (r"\btokens?\b", ["token"]),
    "embedding": (r"\bembeddings?\b", ["embedding"]),
    "query": (r"\bquer(?:y|ies)\b", ["query"]),
    "key": (r"\bkeys?\b(?! cells?\b)", ["key"]),
    "value": (
        r"\b(?:quer(?:y|ies)|keys?),? and (?:the |a )?values?\b"
        r"|\bkey-value\b|\bvalue (?:vectors?|rows?|matri(?:x|ces)|projections?)\b",
        ["value"],
    ),
    "logit": (r"\blogits?\b", ["logit"]),
    "entropy": (r"(?<!-)\bentropy\b", ["entropy"]),
    "cross-entropy": (r"\bcross-entropy\b", ["cross-entropy loss"]),
    "nat": (r"\bnats?\b", ["nat"]),
    "dot product": (r"\bdot[- ]products?\b", ["dot product"]),
    "sequence": (r"\bsequences?\b", ["sequence"]),
    "feed-forward": (r"\bfeed[- ]forward\b", ["feed-forward network"]),
    "vocabulary": (r"\bvocabular(?:y|ies)\b", ["vocabulary"]),
    "GELU": (r"\bGELUs?\b", ["GELU"]),
    "perplexity": (r"\bperplexit(?:y|ies)\b", ["perplexity"]),
    "Xavier initialisation": (r"\bXavier\b", ["Xavier initialisation"]),
    "layer normalisation": (
        r"\blayer[- ]norm(?:ali[sz]ation)?s?\b",
        ["layer normalization", "normalisation"],
    ),
    "attention weights": (r"\battention weights?\b", ["attention weights"]),
    "self-attention": (r"\bself-attention\b", ["self-attention"]),
    "multi-head attention": (r"\bmulti-head attention\b", ["multi-head attention"]),
    "residual stream": (r"\bresidual stream\b", ["residual stream"]),
    "hidden state": (r"\bhidden states?\b", ["hidden state"]),
    "byte pair encoding": (
        r"\bbyte[- ]pair encoding\b|\bBPE\b",
        ["byte pair encoding"],
    ),
    "bigram model": (r"\bbigrams?\b", ["bigram model"]),
    "temperature": (r"\btemperatures?\b", ["temperature"]),
    "greedy decoding": (r"\bgreedy\b", ["greedy decoding"]),
    "autoregressive": (
        r"\bautoregressive\b",
        ["autoregressive", "autoregressive generation"],
    ),
    "KV cache": (r"\bKV cache\b", ["KV cache"]),
}

# term: the page it waits for. Whoever brings that page up to the rule removes its lines.
PENDING = {}

NOTE = re.compile(
    r"^(`{3,}|:{3,})\{admonition\}\s*Against the source.*?^\1\s*$", re.M | re.S
)
# A fence that is not a prose box: code, code-cell, math, a bare fence.
CODE_FENCE = re.compile(
    r"^(`{3,}|~{3,}|:{3,})(?!\{(?:admonition|note|tip|hint|important|warning|caution"
    r"|attention|danger|error|seealso|dropdown|figure|margin|sidebar)\}).*?^\1\s*$",
    re.M | re.S,
)
MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.S)
# A role or an inline code span, read left to right so that the backtick closing one
# role never opens a code span; only {term} roles are kept.
ROLE_OR_CODE = re.compile(r"\{([a-z:]+)\}`[^`]*`|``[^`\n]+``|`[^`\n]+`")
LINK_TARGET = re.compile(r"\]\([^)]*\)")
TERM_LINK = re.compile(r"\{term\}`([^`]+)`")


def chapters() -> list[str]:
    """Every chapter with a MyST twin, in `_toc.yml` order."""
    return [d for d in notebook_docs() if (ROOT / f"{d}.md").exists()]


def teaching_prose(doc: str) -> str:
    nb = jupytext.read(ROOT / f"{doc}.md")
    parts = []
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        parts.append(strip(cell.source))
    return "\n".join(parts)


def strip(text: str) -> str:
    """Markdown less what is not teaching prose."""
    for pattern in (NOTE, CODE_FENCE, MATH):
        text = pattern.sub(" ", text)
    text = ROLE_OR_CODE.sub(lambda m: m[0] if m[1] == "term" else " ", text)
    return LINK_TARGET.sub("]", text)


def linked(text: str) -> set[str]:
    """The glossary entries a page's {term} links name, lower case."""
    out = set()
    for m in TERM_LINK.finditer(text):
        inner = re.search(r"<([^>]+)>\s*$", m.group(1))
        out.add((inner.group(1) if inner else m.group(1)).strip().lower())
    return out


def glossary() -> set[str]:
    entries = yaml.safe_load((ROOT / "glossary.yml").read_text(encoding="utf-8"))
    return {e["term"].strip().lower() for e in entries or []}


_PROSE: dict[str, str] = {}


def prose_of(doc: str) -> str:
    if doc not in _PROSE:
        _PROSE[doc] = teaching_prose(doc)
    return _PROSE[doc]


def first_use(name: str):
    """(page, excerpt) of the first use of a term, or (None, None)."""
    pattern = re.compile(TERMS[name][0], re.I)
    for doc in chapters():
        text = prose_of(doc)
        m = pattern.search(text)
        if m:
            excerpt = " ".join(text[max(0, m.start() - 60) : m.end() + 60].split())
            return doc, excerpt
    return None, None


def problem(name: str, known: set[str]) -> str | None:
    """Why a term fails the rule, or None when it holds."""
    entries = [t.lower() for t in TERMS[name][1]]
    if entries[0] not in known:
        return f"glossary.yml has no entry {TERMS[name][1][0]!r}"
    doc, excerpt = first_use(name)
    if doc is None:
        return None
    hit = linked(prose_of(doc)) & set(entries)
    if not hit:
        return (
            f"{name!r} is first used in {doc} (...{excerpt}...), which has no "
            f"{{term}} link to any of {TERMS[name][1]}"
        )
    missing = hit - known
    if missing:
        return f"{doc} links {sorted(missing)}, which glossary.yml lacks"
    return None


@pytest.fixture(scope="module")
def known():
    return glossary()


@pytest.mark.parametrize("name", list(TERMS))
def test_term_is_defined_where_first_used(name, known):
    why = problem(name, known)
    if name in PENDING:
        if why is None:
            pytest.fail(
                f"{name!r} now holds: remove it from PENDING in {Path(__file__).name}"
            )
        doc, _ = first_use(name)
        if doc != PENDING[name]:
            pytest.fail(f"{name!r} is now first used in {doc}: update PENDING ({why})")
        pytest.skip(f"pending {PENDING[name]}: {why}")
    assert why is None, why


def test_pending_names_known_terms():
    assert set(PENDING) <= set(TERMS), set(PENDING) - set(TERMS)
    docs = set(chapters())
    assert set(PENDING.values()) <= docs, set(PENDING.values()) - docs


def test_term_patterns_find_what_they_mean():
    """The sense filters on a few sentences: each pattern matches its sense and not the
    other."""
    cases = {
        "key": ("the queries, the keys and the values", "run the key cell, then call"),
        "value": ("queries, keys and values are the vectors", "twelve values to move"),
        "weight": ("one weight, one bias", "the attention weights sum to one"),
        "loss": ("the loss climbs", "a loss of precision"),
        "entropy": ("the entropy of each row", "the cross-entropy falls"),
    }
    for name, (hit, miss) in cases.items():
        pattern = re.compile(TERMS[name][0], re.I)
        assert pattern.search(hit), (name, hit)
        assert not pattern.search(miss), (name, miss)


def test_prose_leaves_out_code_maths_and_the_note(tmp_path):
    text = (
        "A tensor here.\n\n```python\nmatrix = 1\n```\n\n$\\mathrm{softmax}(x)$ and "
        "`float64`.\n\n```{admonition} Against the source\n:class: dropdown\n"
        "The source said gradient.\n```\n\nSee {cite:p}`attention2017` and "
        "[the layer](../layer.ipynb), {term}`position-wise` {term}`epoch`.\n"
    )
    found = {
        name for name, (rx, _) in TERMS.items() if re.search(rx, strip(text), re.I)
    }
    assert found == {"tensor", "layer", "epoch"}, found
    assert linked(strip(text)) == {"position-wise", "epoch"}


if __name__ == "__main__":
    known = glossary()
    for name in TERMS:
        doc, excerpt = first_use(name)
        why = problem(name, known)
        state = "ok" if why is None else ("PENDING" if name in PENDING else "FAIL")
        print(f"{state:8s} {name:24s} {str(doc).split('/')[-1]:28s} {excerpt}")
