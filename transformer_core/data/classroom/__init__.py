"""The classroom corpus: everyday English sentences with Korean and German translations and gold word
alignments, generated from a hand-written lexicon (lexicon/*.tsv) and grammar frames (grammar.py).

    python -m transformer_core data classroom --pair en-ko --out data/classroom-enko --size 60000

Morphology comes from well-kept libraries: kiwipiepy (Korean), ablaut and german-nouns (German),
lemminflect and inflect (English); see each module's docstring.
"""
