"""The API's documentation page, read from its OpenAPI schema: every address with its
parameters and the fields of its answer. One text: the schema says what the API does, the
page only lays it out (ninja's own page loads scripts from a CDN, which the site's CSP refuses)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from api.routes import api

# Deep enough for the deepest answer (a standing's rounds' cells); a schema that nested deeper
# would show its outer fields only.
MAX_DEPTH = 4


@dataclass(frozen=True)
class Field:
    name: str  # dotted: "results[].rounds{}.place_points"
    type: str
    description: str


@dataclass(frozen=True)
class Parameter:
    name: str
    where: str  # "path" or "query"
    type: str
    required: bool
    description: str


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    summary: str
    description: str
    parameters: list[Parameter]
    fields: list[Field]
    # What a write sends (its JSON body's fields), and whether it needs a personal API token.
    body: Sequence[Field] = ()
    token: bool = False

    @property
    def anchor(self) -> str:
        return "op-" + "".join(c if c.isalnum() else "-" for c in self.path).strip("-")


def _resolve(schema: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if ref is not None:
        return components[ref.rsplit("/", 1)[-1]]
    options = [each for each in schema.get("anyOf", ()) if each.get("type") != "null"]
    if len(options) == 1:
        return {**_resolve(options[0], components), "nullable": True}
    return schema


def _type(schema: dict[str, Any], components: dict[str, Any]) -> str:
    schema = _resolve(schema, components)
    if schema.get("enum"):
        kind = " | ".join(str(value) for value in schema["enum"])
    elif schema.get("type") == "array":
        kind = f"[{_type(schema.get('items', {}), components)}]"
    elif schema.get("type") == "object" or "properties" in schema:
        kind = schema.get("title", "object") if "properties" in schema else "object"
    else:
        kind = schema.get("format") or schema.get("type") or "any"
    return f"{kind} | null" if schema.get("nullable") else kind


def _fields(
    schema: dict[str, Any], components: dict[str, Any], prefix: str = "", depth: int = 0
) -> list[Field]:
    schema = _resolve(schema, components)
    found = []
    for name, field in schema.get("properties", {}).items():
        dotted = f"{prefix}{name}"
        description = field.get("description", "")
        resolved = _resolve(field, components)
        found.append(Field(dotted, _type(field, components), description))
        if depth + 1 >= MAX_DEPTH:
            continue
        if resolved.get("type") == "array":
            found += _fields(resolved.get("items", {}), components, f"{dotted}[].", depth + 1)
        elif isinstance(resolved.get("additionalProperties"), dict):
            inner = resolved["additionalProperties"]
            found += _fields(inner, components, f"{dotted}{{}}.", depth + 1)
        elif "properties" in resolved:
            found += _fields(resolved, components, f"{dotted}.", depth + 1)
    return found


@cache
def operations() -> tuple[Operation, ...]:
    """The API's GET operations as the schema describes them, in the schema's order."""
    schema = api.get_openapi_schema()
    components = schema.get("components", {}).get("schemas", {})
    found = []
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            responses = operation.get("responses", {})
            # The answer of success: 200, or a write's 201.
            answer: dict[str, Any] = next(
                (responses[code] for code in (200, "200", 201, "201") if code in responses), {}
            )
            body = answer.get("content", {}).get("application/json", {}).get("schema", {})
            sent = operation.get("requestBody", {}).get("content", {})
            sent = sent.get("application/json", {}).get("schema", {})
            found.append(
                Operation(
                    method=method.upper(),
                    path=path,
                    summary=operation.get("summary", ""),
                    description=operation.get("description", ""),
                    parameters=[
                        Parameter(
                            name=parameter["name"],
                            where=parameter["in"],
                            type=_type(parameter.get("schema", {}), components),
                            required=parameter.get("required", False),
                            description=parameter.get("description", "")
                            or parameter.get("schema", {}).get("description", ""),
                        )
                        for parameter in operation.get("parameters", ())
                    ],
                    fields=_fields(body, components),
                    body=_fields(sent, components),
                    token=bool(operation.get("security")),
                )
            )
    return tuple(found)


# The API's root: what it lists, and the route each is found at.
INDEX = {
    "docs": "docs",
    "schema": "openapi-json",
    "tournaments": "tournaments",
    "players": "players",
    "clubs": "clubs",
    "seasons": "seasons",
    "season_ranking": "season_ranking",
    "rating": "rating",
}


@require_safe
def api_index(request: HttpRequest) -> JsonResponse:
    """The API's root: where its documentation, its schema and its lists are."""
    return JsonResponse(
        {key: request.build_absolute_uri(reverse(f"api:{name}")) for key, name in INDEX.items()}
    )


def unknown_address(request: HttpRequest) -> JsonResponse:
    docs = request.build_absolute_uri(reverse("api:docs"))
    return JsonResponse(
        {"detail": f"No such address in the API: {request.path}. Its addresses: {docs}"},
        status=404,
    )


@require_safe
def api_docs(request: HttpRequest) -> HttpResponse:
    root = request.build_absolute_uri(reverse("api:api-root"))
    return render(
        request,
        "api/docs.html",
        {
            "operations": operations(),
            "root": root.rstrip("/"),
            "schema_url": request.build_absolute_uri(reverse("api:openapi-json")),
            "token_limit": settings.RATE_LIMITS["api-token"]["failures"],
            "token_seconds": settings.RATE_LIMITS["api-token"]["seconds"],
        },
    )
