"""Reading a small JSON object from a request's body, refused in a sentence otherwise.

Only ``Content-Type: application/json`` is read: a page elsewhere can send a form or
``text/plain`` without asking, but not JSON, so this alone keeps cross-site forms out."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .common import MAX_MESSAGE, error_response, read_body, reason


async def json_object(request: Request, fields: tuple[str, ...],
                      example: str) -> dict[str, Any] | Response:
    """The body as an object with only ``fields``, or the response that refuses it."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        return error_response(415, "the body is JSON: send Content-Type: application/json")
    body = await read_body(request)
    if body is None:
        return JSONResponse({"error": f"the request is over {MAX_MESSAGE} bytes"},
                            status_code=413, headers={"Connection": "close"})
    try:
        data = json.loads(body or b"{}")
    except (ValueError, RecursionError) as error:
        return error_response(400, f"the body is not JSON we can read: {reason(error)}")
    if not isinstance(data, dict):
        return error_response(400, f"the body is an object such as {example}")
    unknown = sorted(set(data) - set(fields))
    if unknown:
        return error_response(400, f"unknown field(s): {', '.join(unknown)}; this takes "
                              f"{', '.join(fields) or 'no fields'}")
    return data
