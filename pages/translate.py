"""Translate & attention (home): another engineer fills this page once the model loader exists."""
from pages.ui.widgets import coming_soon

coming_soon("translate")
