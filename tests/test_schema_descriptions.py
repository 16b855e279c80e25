"""The data form for editors: `compile --format yaml` names its schema, and the
schemas explain every property (yaml-language-server shows them on hover and in
completion)."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlparse

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from rulepack.cli.main import main

SCHEMAS = sorted((Path(__file__).resolve().parent.parent / "rulepack" / "schemas").glob("*.json"))


def properties(node, where="$"):
    """(path, name, schema) of every property declared anywhere in a schema."""
    if isinstance(node, dict):
        for name, schema in node.get("properties", {}).items():
            yield f"{where}.{name}", name, schema
        for key, value in node.items():
            yield from properties(value, f"{where}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from properties(value, f"{where}[{i}]")


@pytest.mark.parametrize("path", SCHEMAS, ids=[p.name for p in SCHEMAS])
def test_every_property_of_the_schemas_has_a_description(path: Path):
    schema = json.loads(path.read_text(encoding="utf-8"))
    found = list(properties(schema))
    assert found
    missing = [where for where, _, s in found
               if not (isinstance(s, dict) and str(s.get("description", "")).strip())]
    assert not missing, missing[:10]


def test_compile_to_yaml_names_the_schema_it_validates_against():
    result = CliRunner().invoke(main, ["compile", "tic-tac-toe", "--format", "yaml"])
    assert result.exit_code == 0
    first, _, rest = result.stdout.partition("\n")
    prefix = "# yaml-language-server: $schema="
    assert first.startswith(prefix)
    uri = urlparse(first[len(prefix):])
    assert uri.scheme == "file"
    schema = json.loads(Path(uri.path).read_text(encoding="utf-8"))
    assert schema["title"] == "rulepack ruleset IR"
    jsonschema.validate(yaml.safe_load(rest), schema)
