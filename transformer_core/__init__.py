"""transformer_core: the Transformer of "Attention Is All You Need", fully observable.

All the math lives here; nothing in this package imports Streamlit.
"""
