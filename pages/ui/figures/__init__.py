"""All plotly figure builders.  Plain functions: data in (numpy / torch / lists, plus the already
translated labels), a plotly Figure out.  No Streamlit here, so every builder is testable alone.

Conventions
- Token labels go on numeric axes (0, 1, …) with the tokens as tick text, so repeated tokens stay
  apart, and they are escaped: plotly treats "<pad>" as markup otherwise.  theme.token_label names
  them: one name per special token, "▁" drawn as the word-start mark.
- Colours come from theme.py: SEQUENTIAL for weights and probabilities, DIVERGING (centred at 0) for
  signed values.
- −∞ (masked scores) is drawn as a blank cell with the text given in masked_text (e.g. "−∞").
- Every title and axis title is passed in by the caller (from the i18n files).
"""
from .base import escape, as_array, heatmap, line_figure, bar_figure, histogram_figure, tick_labels, mask_trace
from .architecture import architecture_svg, residual_figure, top_next_figure
from .attention import (GRID_GAP, GRID_TICK_LIMIT, attention_grid, grid_panel, grid_window, attention_heatmap, ALIGN_BINS,
                        alignment_figure, matrix_panels, position_stats_figure, cost_figure)
from .decoding import probability_text, topk_figure
from .masks import mask_heatmap, batch_mask_heatmap, scores_heatmap, leak_figure
from .positional import pe_waves, pe_heatmap, similarity_heatmap, rotation_figure, encoding_figure
from .training import lr_figure, log_figure, history_figure, smoothing_figure
