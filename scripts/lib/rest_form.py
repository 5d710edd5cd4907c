"""The one reader of the REST form's declaration, Schemas/imcodec/rest/v1/rest.json.

The declaration names the model's fields by their proto names; this module
checks each against the schema (scripts/lib/schema.py) and adds its proto3
JSON name, so a misspelt field fails every generator that reads it
(scripts/codegen/generate_rest.py, scripts/vectors/make_rest_vectors.py,
scripts/fuzz/make_fuzz_dicts.py).

    import rest_form
    rest = rest_form.load()
    rest.forms["text"].keys[0].name          # "Text"
    rest.forms["text"].keys[0].json          # "text"
    rest.elem("TIMTextElem").kind            # "text"

`IMCODEC_SCHEMAS` names another schema folder, as for scripts/lib/schema.py.
"""

import collections
import json
import os

import schema

DECLARATION = "imcodec/rest/v1/rest.json"
PRESENCES = ("required", "optional", "group")
# "table": the elem maps by its form alone (the generated mapping); "custom": by code beside the table.
MAPPINGS = ("table", "custom")

Key = collections.namedtuple("Key", "name field json value presence form swift limit outside")
Form = collections.namedtuple("Form", "name model swift_model swift_prefix keys doc")
ElemType = collections.namedtuple("ElemType", "msg_type case kind form mapping unrepresentable")


def path(schemas=None):
    """The declaration file in the schema folder `schemas` (default: Schemas/ or $IMCODEC_SCHEMAS)."""
    folder = schemas or os.environ.get("IMCODEC_SCHEMAS") or os.path.join(schema.ROOT, "Schemas")
    return os.path.join(folder, DECLARATION)


class RestForm:
    """The declaration, checked against the model: `forms` by name in declaration order, `elems` in
    declaration order, the envelope-only keys, aliases, element keys and message-list keys."""

    def __init__(self, data, model):
        self.data = data
        self.value_forms = collections.OrderedDict((v["name"], v) for v in data["valueForms"])
        self.element_keys = list(data["elementKeys"])
        self.envelope_only_keys = list(data["envelopeOnlyKeys"])
        self.aliases = dict(data["aliases"])
        self.message_list_keys = list(data["messageListKeys"])
        self.unrepresentable = {k: v for k, v in data["unrepresentable"].items() if not k.startswith("$")}
        self.errors = list(data["errors"])
        self.forms = collections.OrderedDict()
        for entry in data["forms"]:
            self.forms[entry["name"]] = self._form(entry, model)
        self.elems = [ElemType(e["msgType"], e["case"], e["kind"], e["form"], e.get("mapping", "table"),
                               e.get("unrepresentable", [])) for e in data["elems"]]
        self._check(model)

    def _form(self, entry, model):
        name = entry["name"]
        if "keysOf" in entry:
            base = self.forms[entry["keysOf"]]
            required = set(entry["required"])
            unknown = required - {k.name for k in base.keys}
            if unknown:
                raise ValueError(f"{DECLARATION}: form {name} requires undeclared keys {sorted(unknown)}")
            keys = [k._replace(presence="required" if k.name in required else "optional") for k in base.keys]
            return Form(name, base.model, base.swift_model, base.swift_prefix, keys, entry.get("doc", ""))
        message = entry["model"]
        keys = []
        for k in entry["keys"]:
            presence = k.get("presence", "required")
            if presence not in PRESENCES:
                raise ValueError(f"{DECLARATION}: {name}.{k['key']}: presence {presence!r} is not one of {PRESENCES}")
            if k["value"] not in self.value_forms:
                raise ValueError(f"{DECLARATION}: {name}.{k['key']}: value form {k['value']!r} is not declared")
            if "field" in k:
                field = model.field(message, k["field"])
                json_name, proto_name = field.json_name, field.name
            else:
                outer, _, outside = k["outside"].partition(".")
                json_name, proto_name = model.field(outer, outside).json_name, None
            keys.append(Key(k["key"], proto_name, json_name, k["value"], presence, k.get("form"),
                            k.get("swift"), k.get("limit"), k.get("outside")))
        names = [k.name for k in keys]
        if len(set(names)) != len(names):
            raise ValueError(f"{DECLARATION}: form {name} declares a key twice")
        return Form(name, message, entry.get("swiftModel", message), entry.get("swiftPrefix", ""), keys,
                    entry.get("doc", ""))

    def _check(self, model):
        for form in self.forms.values():
            for key in form.keys:
                if key.form is not None and key.form not in self.forms:
                    raise ValueError(f"{DECLARATION}: {form.name}.{key.name} names no form {key.form!r}")
        for elem in self.elems:
            if elem.mapping not in MAPPINGS:
                raise ValueError(f"{DECLARATION}: {elem.msg_type}: mapping {elem.mapping!r} is not one of {MAPPINGS}")
            model.field("Elem", elem.kind)
            if elem.form not in self.forms:
                raise ValueError(f"{DECLARATION}: {elem.msg_type} names no form {elem.form!r}")
            for field in elem.unrepresentable:
                model.field(self.forms[elem.form].model, field)
        for target, fields in self.unrepresentable.items():
            message = self.forms[target].model if target in self.forms else "Message"
            for entry in fields:
                model.field(message, entry.split(":")[0])
        for alias, key in self.aliases.items():
            if key not in {k.name for k in self.forms["message"].keys}:
                raise ValueError(f"{DECLARATION}: alias {alias} names no message key {key!r}")

    def elem(self, msg_type):
        return next(e for e in self.elems if e.msg_type == msg_type)

    def all_keys(self):
        """Every key name the form declares, once each, in declaration order."""
        seen = []
        for name in (*self.element_keys, *self.message_list_keys, *self.aliases,
                     *(k.name for f in self.forms.values() for k in f.keys), *self.envelope_only_keys):
            if name not in seen:
                seen.append(name)
        return seen


def load(schemas=None, model=None):
    """The declaration, checked against the model (read through protoc unless given)."""
    with open(path(schemas), encoding="utf-8") as f:
        data = json.load(f, object_pairs_hook=collections.OrderedDict)
    if model is None:
        model = schema.Schema.of_package(schemas=schemas)
    return RestForm(data, model)
