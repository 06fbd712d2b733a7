"""The paper's model: its config, scaled dot-product and multi-head attention, positional encoding, masks,
the encoder-decoder Transformer, greedy and beam decoding, the SentencePiece tokenizer, and the probe
that records what a forward pass computes.  Depends on nothing else in transformer_core."""
