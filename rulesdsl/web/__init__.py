"""The web table (``rulesdsl serve``): needs the ``web`` extra (Starlette, uvicorn)."""
