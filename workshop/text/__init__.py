"""Reading a notebook as text: the rules of truth (notebook_text, relation_text,
published_text) and their pending lists, the generated modules of taught functions
(save), and git's text view of a notebook (nbtext)."""
