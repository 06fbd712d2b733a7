"""Models: the checkpoints on disk and on the Hub; another engineer fills this page."""
from pages.ui.widgets import coming_soon

coming_soon("models")
