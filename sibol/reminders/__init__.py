"""Reminders the evening before a household's collection, by SMS and e-mail, with consent."""
