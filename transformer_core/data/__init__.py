"""Corpora: the sources of parallel text (sources/), the generated classroom corpus (classroom/), the
build of a data folder (build.py: `python -m transformer_core data …`) and token-based batches.
Depends on model/ (the tokenizer) alone."""
