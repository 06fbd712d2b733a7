"""Training: the training script (train.py), the learning-rate schedule, label smoothing, weight
averaging, tokenizer transplants, the training log, evaluation (BLEU and chrF) and mix comparisons."""
