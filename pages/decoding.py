"""Step-by-step decoding: needs a trained model; another engineer fills this page."""
from pages.ui.widgets import coming_soon

coming_soon("decoding")
