"""WSGI entry point: gunicorn wsgi:app."""

from sibol import create_app

app = create_app()
