"""The language switcher: POST /language for pages, PUT /api/me/language for clients."""
