"""Checkpoints: the Checkpoint every format gives (files.py), the one validation step (validate.py), one
reader per format (folder.py: this project's; marian.py: Hugging Face Marian), the one door that tells
them apart (load.py: load_checkpoint), uploads and the Hub, the model card and the word counts a
checkpoint ships (seen.py).  Depends on model/ alone."""
