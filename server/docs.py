"""GET /docs: the API reference as one self-contained HTML page, built from /openapi.json.

No script or stylesheet from a CDN: the server may have no internet access.
"""
from __future__ import annotations

from html import escape

from flask import Flask, Response, current_app

from .apidoc import ANY_ENDPOINT, ANYWHERE, ERRORS, LIMITED, WITH_BODY
from .headers import allow_inline_style

STYLE = """body{font:15px/1.45 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
h2{margin-top:2rem;border-bottom:1px solid #ddd}code,pre{background:#f5f2ea;padding:0 .25rem;border-radius:3px}
.m{display:inline-block;width:4.5rem;font-weight:bold}.op{margin:1rem 0}.r{color:#666;font-size:13px}"""


def _operation(path: str, method: str, op: dict) -> str:
    params = ", ".join(f"<code>{escape(p['name'])}</code> ({p['in']})" for p in op.get("parameters", []))
    body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
    body_ref = body.get("$ref", "").rsplit("/", 1)[-1]
    codes = ", ".join(code for code, answer in sorted(op.get("responses", {}).items()) if not answer.get(ANY_ENDPOINT))
    return (f'<div class="op"><span class="m">{method.upper()}</span><code>{escape(path)}</code>'
            f'<div>{escape(op.get("summary", ""))} {escape(op.get("description", ""))}</div>'
            f'<div class="r">{"parameters: " + params + ". " if params else ""}'
            f'{"body: <code>" + escape(body_ref) + "</code>. " if body_ref else ""}responses: {codes}</div></div>')


def _schema(name: str, schema: dict) -> str:
    rows = "".join(f"<li><code>{escape(field)}</code> {escape(str(spec.get('type', spec.get('$ref', ''))))}</li>"
                   for field, spec in schema.get("properties", {}).items())
    return f"<h3>{escape(name)}</h3><ul>{rows}</ul>"


def render(spec: dict) -> str:
    ops = "".join(_operation(path, method, op) for path, item in spec.get("paths", {}).items()
                  for method, op in item.items() if isinstance(op, dict) and method != "parameters")
    schemas = "".join(_schema(n, s) for n, s in spec.get("components", {}).get("schemas", {}).items())
    info = spec.get("info", {})
    return (f"<!doctype html><meta charset=utf-8><title>{escape(info.get('title', 'API'))}</title><style>{STYLE}</style>"
            f"<p><a href='/'>&larr; Back to Tash-Kalar Arena</a> (play, watch, your games)</p>"
            f"<h1>{escape(info.get('title', ''))} API</h1><p>{escape(info.get('description', ''))} "
            f"Machine-readable: <a href='/openapi.json'>/openapi.json</a>. Errors are "
            f"<code>application/problem+json</code> with a stable <code>code</code>.</p>"
            f"<h2>Refusals of any endpoint</h2><p>Each endpoint below lists the refusals it gives for its own "
            f"reasons. Besides those, a request may be refused before its endpoint runs, as its entry's "
            f"responses show:</p><ul>{_common()}</ul>"
            f"<h2>Endpoints</h2>{ops}<h2>Schemas</h2>{schemas}")


def _common() -> str:
    general = sorted(ANYWHERE | WITH_BODY | LIMITED)
    return "".join(f"<li><code>{code}</code> {escape(ERRORS[code])}</li>" for code in general)


def register(app: Flask) -> None:
    @app.route("/docs")
    def docs() -> Response:
        spec = current_app.extensions["openapi"].spec.to_dict()
        return allow_inline_style(Response(render(spec), mimetype="text/html"), STYLE)
