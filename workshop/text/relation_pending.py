"""Print what the relation guard (tests/test_relations.py) flags today, in the shape of
tests/relation_pending.yml. The file itself is edited by hand: it lists debts and only
shrinks."""

from workshop.text.notebook_text import ROOT, load, notebooks, yaml_quote
from workshop.text.relation_text import unbacked_relations

for p in notebooks():
    flags = unbacked_relations(load(p))
    if flags:
        print(f"{p.relative_to(ROOT).as_posix()}:")
        for f in flags:
            print(f"  - {yaml_quote(f)}")
