"""What the explainer computes from a checkpoint: traces and attention (explain.py), translation and
what-if decoding (translate.py), word alignments and their AER, gradient attribution, the attention
history of training, and the small seeded stand-ins of the mechanics pages."""
