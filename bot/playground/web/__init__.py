"""The playground's web page (`front`) and its files (`static/`)."""
