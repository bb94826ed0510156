"""The language switcher (issue 16): POST /language for pages, PUT /api/me/language for clients."""
