"""Sphinx configuration of cybleu's docs: MyST Markdown pages, furo, autodoc on the installed
package. Build: `sphinx-build -W --keep-going -b html docs docs/_build/html` (offline: no
intersphinx, no remote images, fonts or scripts)."""
from cybleu.version import __version__

project = "cybleu"
author = "The cybleu contributors"
copyright = "the cybleu contributors, Apache-2.0"
version = release = __version__

extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
root_doc = "index"

# MyST: `:::{note}` admonitions, and anchors for headings so that `page.md#a-heading` links
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# autodoc imports the real modules: the lazy public names, the compiled functions' embedded
# signatures. The torch integration is documented without torch.
autodoc_mock_imports = ["torch", "torchmetrics", "dask", "distributed", "ray", "pyspark"]
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True}
# `name` in a docstring links to the object when it exists, else it is shown as code
default_role = "py:obj"

html_theme = "furo"
html_title = f"cybleu {__version__}"
html_static_path = ["_static"]
html_css_files = ["custom.css"]
html_show_sourcelink = False
# nothing fetched at build or view time: no analytics, no remote fonts (furo uses system fonts)
html_theme_options = {"source_repository": "https://github.com/cybleu/cybleu/",
                      "source_branch": "main", "source_directory": "docs/"}
