"""Every account's profile: name and contact, e-mail change by link, password change,
sign-in history, active sessions."""
